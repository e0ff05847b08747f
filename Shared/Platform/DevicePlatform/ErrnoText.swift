/*
Abstract:
The one way an errno value becomes words in an error message.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The text of an `errno` value, such as "No such file or directory", for error messages.
///
/// Every module calls this rather than `strerror(3)` (SessionKit excepted: it must compile with
/// Foundation alone, so it keeps a one-line copy of its own).
/// - Parameter code: The value; the calling thread's current `errno` by default.
public func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// The reason of an error in words, for the middle of a sentence: the system's text of its POSIX
/// error when it carries one (Foundation's file errors wrap it), else its description, without a
/// closing period, so a message that quotes it never ends in "..".
/// - Parameter error: The error, such as one `FileManager` threw.
public func reasonText(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return errnoText(posix.code.rawValue) }
    let bridged = error as NSError
    let foundationDomains = [NSCocoaErrorDomain, NSPOSIXErrorDomain, NSURLErrorDomain]
    if !(type(of: error) is NSError.Type), !foundationDomains.contains(bridged.domain) {
        // This project's own errors describe themselves in a sentence; bridged to NSError they would not.
        return String(String(describing: error).trimmingSuffix("."))
    }
    if bridged.domain == NSPOSIXErrorDomain { return errnoText(Int32(truncatingIfNeeded: bridged.code)) }
    if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return errnoText(Int32(truncatingIfNeeded: underlying.code))
    }
    // Foundation's file errors on Linux often lose the errno; name the common ones as the system would.
    if bridged.domain == NSCocoaErrorDomain, let code = cocoaFileErrnos[bridged.code] { return errnoText(code) }
    return String(bridged.localizedDescription.trimmingSuffix("."))
}

extension String {
    /// The string without any run of `suffix` at its end.
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        var text = self[...]
        while text.last == suffix { text.removeLast() }
        return text
    }
}

/// The errno behind Cocoa's file error codes, for ``reasonText(_:)``.
private let cocoaFileErrnos: [Int: Int32] = [
    CocoaError.fileNoSuchFile.rawValue: ENOENT, CocoaError.fileReadNoSuchFile.rawValue: ENOENT,
    CocoaError.fileReadNoPermission.rawValue: EACCES, CocoaError.fileWriteNoPermission.rawValue: EACCES,
    CocoaError.fileWriteOutOfSpace.rawValue: ENOSPC, CocoaError.fileWriteVolumeReadOnly.rawValue: EROFS,
    CocoaError.fileWriteFileExists.rawValue: EEXIST,
]
