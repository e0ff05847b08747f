/*
Abstract:
Memory the test extension allocates and touches, so its resident size crosses the service's limit.
*/

import Foundation

/// Resident memory held on purpose until the process ends.
enum MemoryBallast {
    /// Allocates `mebibytes` MiB one MiB at a time and writes every byte, so each page becomes resident.
    ///
    /// The blocks are never freed: the process is expected to be killed by the service's memory
    /// watch while it holds them, and otherwise ends soon after.
    /// - Parameter mebibytes: How much to allocate.
    static func hold(mebibytes: Int) {
        let block = 1 << 20
        for _ in 0..<max(0, mebibytes) {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 4096)
            // Non-zero bytes, so no page can stay a shared zero page.
            memset(pointer, 0xA5, block)
        }
    }
}
