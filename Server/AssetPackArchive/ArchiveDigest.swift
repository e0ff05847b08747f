/*
Abstract:
SHA-256 for archives through libcrypto, whose state can be saved and restored, in the processes that must not link the sample's SessionKit.
*/

import CCrypto

/// An incremental SHA-256 over libcrypto's `SHA256_CTX`, whose state can be exported and imported,
/// so a download that resumes after a restart of the service goes on digesting where it stopped.
///
/// SessionKit has a SHA-256 too, but it must stay copyable into an Xcode project (CryptoKit only)
/// and it depends on the BackgroundAssets framework, which the system service must not link
/// (it would bring FoundationNetworking and libcurl with it); the service, the packaging tool and
/// the asset server verify archives with this one. libcrypto's EVP interface cannot export its
/// state, so this one uses the plain context (CCrypto's `sha256_state.h`), which runs the same
/// assembly.
struct ArchiveDigest {
    private var context = SHA256_CTX()

    /// Starts a digest.
    init() {
        ccrypto_sha256_init(&context)
    }

    /// Restores a digest from ``exportedState``.
    /// - Returns: `nil` when the bytes are not a state this build of libcrypto exported: another
    ///   length, version or context size, or a context no digest could be in.
    init?(importing state: [UInt8]) {
        var context = SHA256_CTX()
        let imported = state.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.map { ccrypto_sha256_import(&context, $0, bytes.count) } ?? 0
        }
        guard imported == 1 else { return nil }
        self.context = context
    }

    /// The digest's state as bytes, for ``init(importing:)`` in a later process on this machine.
    var exportedState: [UInt8] {
        var state = [UInt8](repeating: 0, count: ccrypto_sha256_state_size())
        withUnsafePointer(to: context) { context in
            state.withUnsafeMutableBufferPointer { ccrypto_sha256_export(context, $0.baseAddress) }
        }
        return state
    }

    /// The number of bytes digested so far.
    var byteCount: Int64 {
        withUnsafePointer(to: context) { Int64(clamping: ccrypto_sha256_byte_count($0)) }
    }

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        ccrypto_sha256_update(&context, base, bytes.count)
    }

    /// Adds the bytes of an array.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest and starts a new one, for a run of files.
    /// - Returns: The finished digest as 64 lowercase hexadecimal characters.
    mutating func finalizeAndRestart() -> String {
        defer { ccrypto_sha256_init(&context) }
        return Self.hex(finalizeBytes())
    }

    /// Finishes the digest; the value is not to be updated afterwards.
    /// - Returns: The 32 bytes of the digest.
    mutating func finalizeBytes() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { ccrypto_sha256_final(&context, $0.baseAddress) }
        return digest
    }

    /// Finishes a copy of the digest, leaving this one as it was.
    /// - Returns: The digest as 64 lowercase hexadecimal characters.
    func finalize() -> String {
        var copy = self
        return Self.hex(copy.finalizeBytes())
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
