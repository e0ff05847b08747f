/*
Abstract:
Copying and secure coding of downloads, the conformances Apple's class lists.
*/

import BackgroundAssetsIPC
import Foundation

extension BADownload {
    /// The key under which a download archives its wire form.
    static let descriptorKey = "BADownload.descriptor"

    /// Whether the class supports secure coding; it does.
    public static var supportsSecureCoding: Bool { true }

    /// Returns a download of the same class with the same identifiers, state, and request.
    /// - Parameter zone: Ignored, as it is on Apple platforms.
    /// - Returns: A new object equal to this one.
    public func copy(with zone: NSZone? = nil) -> Any {
        type(of: self).init(descriptor: descriptor)
    }

    /// Archives the download.
    /// - Parameter coder: A keyed coder, such as `NSKeyedArchiver`.
    public func encode(with coder: NSCoder) {
        // The wire form is the one complete description of a download, so it is what is archived:
        // a download that is unarchived is exactly the one the service would send.
        guard let data = try? JSONEncoder().encode(descriptor) else { return }
        coder.encode(data as NSData, forKey: Self.descriptorKey)
    }

    /// Reads the wire form ``encode(with:)`` archived, for `init?(coder:)`.
    static func decodeDescriptor(from coder: NSCoder) -> DownloadDescriptor? {
        // Asking a secure unarchiver for a missing key is a decoding failure on Linux, so check first.
        guard coder.containsValue(forKey: descriptorKey),
            let data = coder.decodeObject(of: NSData.self, forKey: descriptorKey)
        else { return nil }
        return try? JSONDecoder().decode(DownloadDescriptor.self, from: Data(data))
    }
}
