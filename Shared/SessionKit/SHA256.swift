/*
Abstract:
SHA-256 digests, incremental or streamed from a file in constant memory: CryptoKit on Apple platforms, libcrypto elsewhere.
*/

import Foundation
#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

#if canImport(CryptoKit)
/// An incremental SHA-256 digest.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(data: chunk)
/// let hex = hash.finalize()
/// ```
/// The value is non-copyable on every platform, because on Linux it owns a libcrypto context that
/// must be freed exactly once.
public struct SHA256: ~Copyable {
    private var hasher = CryptoKit.SHA256()

    /// Starts a new digest.
    public init() {}

    /// Adds bytes to the digest.
    public mutating func update(bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Adds the bytes of `data` to the digest.
    public mutating func update(data: Data) {
        hasher.update(data: data)
    }

    /// Finishes the digest.
    /// - Returns: The digest as 64 lowercase hexadecimal characters.
    public consuming func finalize() -> String {
        hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
#else
/// An incremental SHA-256 digest through libcrypto; it owns a context that must be freed exactly once.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// Starts a new digest.
    public init() {
        // EVP_MD_CTX_new only fails when memory is exhausted; there is no sensible recovery.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest.")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public mutating func update(bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds the bytes of `data` to the digest.
    public mutating func update(data: Data) {
        data.withUnsafeBytes { update(bytes: $0) }
    }

    /// Finishes the digest.
    /// - Returns: The digest as 64 lowercase hexadecimal characters.
    public consuming func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
#endif

extension SHA256 {
    /// Returns the SHA-256 of `data`.
    public static func hexDigest(of data: Data) -> String {
        var hash = SHA256()
        hash.update(data: data)
        return hash.finalize()
    }

    /// Returns the SHA-256 of a file, read in fixed-size chunks so memory stays constant
    /// whatever the file's size.
    /// - Parameter url: A file URL.
    /// - Throws: ``SessionKitError/fileUnreadable(path:reason:)`` when the file can't be opened or read.
    public static func hexDigest(ofFileAt url: URL) throws -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SessionKitError.fileUnreadable(path: url.path, reason: errnoText())
        }
        defer { close(descriptor) }

        var hash = SHA256()
        let chunkSize = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw SessionKitError.fileUnreadable(path: url.path, reason: errnoText())
            }
            hash.update(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hash.finalize()
    }
}
