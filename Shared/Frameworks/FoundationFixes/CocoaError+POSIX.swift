/*
Abstract:
A failed file system call as the Cocoa error Apple's FileManager reports for it.
*/

import DevicePlatform
import Foundation

#if os(Linux)
extension CocoaError {
    /// The error FileManager reports when a write to `url` fails with `code` (an `errno` value).
    ///
    /// The Cocoa code says what kind of failure it was, as on Apple platforms; the POSIX error is kept
    /// as the underlying error, and the message names the file and the system's reason.
    /// - Parameters:
    ///   - code: The `errno` value.
    ///   - url: The file the call was about.
    /// - Returns: The error.
    static func fileWriteFailure(errno code: Int32, url: URL) -> CocoaError {
        let kind: CocoaError.Code =
            switch code {
            case ENOENT, ENOTDIR: .fileNoSuchFile
            case EACCES, EPERM: .fileWriteNoPermission
            case EEXIST, ENOTEMPTY: .fileWriteFileExists
            case ENOSPC, EDQUOT: .fileWriteOutOfSpace
            case EROFS: .fileWriteVolumeReadOnly
            case ENAMETOOLONG: .fileWriteInvalidFileName
            default: .fileWriteUnknown
            }
        let reason = errnoText(code)
        return CocoaError(
            kind,
            userInfo: [
                NSFilePathErrorKey: url.path,
                NSURLErrorKey: url,
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
                NSLocalizedDescriptionKey: "\(url.path): \(reason).",
            ])
    }
}
#endif
