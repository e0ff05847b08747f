/*
Abstract:
Random UUIDs from the kernel's generator, which needs no file descriptor.
*/

import Foundation

extension UUID {
    /// A random (version 4) UUID, its bits from `SystemRandomNumberGenerator` (`getrandom(2)` on Linux).
    ///
    /// Use it instead of `UUID()` in the service, the tools and the frameworks. On Linux, Foundation's
    /// `UUID()` opens `/dev/urandom`, reads 16 bytes and closes it, every time: three system calls
    /// and a descriptor for each name, and, when the process is at its descriptor limit, a read from
    /// a descriptor that never opened, which leaves the bytes unread and gives the same UUID again
    /// and again without a word. The service names a file with one for every download it hands over,
    /// and temporary files with them where two writers must never pick the same name.
    public static func random() -> UUID {
        #if canImport(Glibc)
        // All sixteen bytes from one getrandom(2): SystemRandomNumberGenerator asks for eight at a
        // time, two system calls for each name, and the service and the extension name every download.
        // getentropy(3) retries a call a signal interrupted.
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        guard withUnsafeMutableBytes(of: &uuid, fillFromKernel) else {
            var generator = SystemRandomNumberGenerator()
            return UUID.random(using: &generator)
        }
        // Version 4 and RFC 9562's variant, as UUID.random(using:) sets them.
        uuid.6 = (uuid.6 & 0x0F) | 0x40
        uuid.8 = (uuid.8 & 0x3F) | 0x80
        return UUID(uuid: uuid)
        #else
        // Apple's Foundation draws `UUID()` from `arc4random_buf`, which needs no descriptor.
        return UUID()
        #endif
    }

    #if canImport(Glibc)
    /// Fills `buffer` (at most 256 bytes) from the kernel's generator with one getentropy(3), which is
    /// one getrandom(2); `false` when it fails.
    private static func fillFromKernel(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        return getentropy(base, buffer.count) == 0
    }
    #endif
}
