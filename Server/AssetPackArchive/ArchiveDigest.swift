/*
Abstract:
SHA-256 for archives through libcrypto, in the processes that must not link the sample's SessionKit.
*/

import CCrypto

/// An incremental SHA-256 over libcrypto's EVP interface.
///
/// SessionKit has a SHA-256 too, but it must stay copyable into an Xcode project (CryptoKit only)
/// and it depends on the BackgroundAssets framework, which the system service must not link
/// (it would bring FoundationNetworking and libcurl with it); the service, the packaging tool and
/// the asset server verify archives with this one.
struct ArchiveDigest: ~Copyable {
    private let context: OpaquePointer

    /// Starts a digest.
    init() {
        // EVP_MD_CTX_new fails only when memory is exhausted, and there is no sensible recovery then.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest.")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds the bytes of an array.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest and starts a new one in the same context, for a run of files without a
    /// context allocated for each.
    /// - Returns: The finished digest as 64 lowercase hexadecimal characters.
    mutating func finalizeAndRestart() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        return Self.hex(digest)
    }

    /// Finishes the digest.
    /// - Returns: The 32 bytes of the digest.
    consuming func finalizeBytes() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }

    /// Finishes the digest.
    /// - Returns: The digest as 64 lowercase hexadecimal characters.
    consuming func finalize() -> String {
        Self.hex(finalizeBytes())
    }

    /// Bytes as lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
