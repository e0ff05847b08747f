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
        var generator = SystemRandomNumberGenerator()
        return UUID.random(using: &generator)
        #else
        // Apple's Foundation draws `UUID()` from `arc4random_buf`, which needs no descriptor.
        return UUID()
        #endif
    }
}
