/*
Abstract:
The CAs the service trusts for https: the system's store plus the device's own, reloaded when the device's change.
*/

import Foundation
import Synchronization
import TLS

/// The TLS trust of one device: OpenSSL's default verify paths plus every `*.pem` in the
/// device's trust folder (`system/trust/`, managed with `backgroundassets-debug trust`).
///
/// The client context is built once and shared by every transfer, so TLS sessions are resumed
/// across downloads; it is rebuilt only when the folder's contents change.
final class TrustedCertificates: Sendable {
    private let directory: URL
    private let cache = Mutex<(signature: [String: FileIdentity?], context: TLSClientContext?)>(([:], nil))

    init(directory: URL) {
        self.directory = directory
    }

    /// The client context for the folder's current contents.
    /// - Throws: ``TransferError`` of kind `.secureConnectionFailed` naming a trusted file that cannot be read.
    func context() throws(TransferError) -> TLSClientContext {
        // Asked before every https transfer, so the folder is listed by name and each file looked
        // at with one stat: attributesOfItem would also read extended attributes and owner names.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".pem") && !$0.hasPrefix(".") }
            .sorted()
        let files = names.map { directory.appending(path: $0, directoryHint: .notDirectory) }
        let signature = Dictionary(uniqueKeysWithValues: zip(names, files.map { FileIdentity(path: $0.path) }))
        if let context = cache.withLock({ $0.signature == signature ? $0.context : nil }) { return context }
        do {
            let context = try TLSClientContext(extraCAFiles: files)
            cache.withLock { $0 = (signature, context) }
            return context
        } catch {
            throw TransferError(.local, .secureConnectionFailed, "\(error.message); remove it with `backgroundassets-debug trust remove`")
        }
    }

    /// A context that trusts the system's store only, for transfers of no particular device.
    static func systemOnly() throws(TransferError) -> TLSClientContext {
        if let context = shared.withLock({ $0 }) { return context }
        do {
            let context = try TLSClientContext()
            shared.withLock { $0 = context }
            return context
        } catch {
            throw TransferError(.local, .secureConnectionFailed, error.message)
        }
    }

    private static let shared = Mutex<TLSClientContext?>(nil)
}
