/*
Abstract:
The file descriptors the service keeps below its limit for its own work, which neither a client nor a transfer may take.
*/

import Foundation

/// The descriptors below the process's limit (`RLIMIT_NOFILE`) that clients and transfers leave free.
///
/// With no descriptor left, more than a client's request fails: libdispatch's pool monitor opens
/// `/proc/TID/stat` each second the shared pool has work waiting, and halts the process (SIGILL)
/// when that open fails, which a busy service at its limit did. So the two things that take
/// descriptors by the dozen stop short of the last ones:
///
/// - the connection loop refuses, in words, a client accepted on a descriptor numbered within the
///   reserve (``isReserved(_:limit:)``), and
/// - the queue starts a transfer (a socket and a staging file) only while both fit below the
///   reserve (``hasRoom(forTransfers:)``), counting the transfers whose threads have not opened
///   theirs yet (those it starts in the same look at the queue, and running ones still connecting);
///   the others wait until a transfer ends or a client leaves.
///
/// Invariant: neither takes a descriptor numbered within ``reserved(under:)`` of the limit, so
/// that many are free for the service's own work (the crash handler, SQLite, a hand-over's folder,
/// libdispatch) whatever clients and transfers do. The kernel hands out the lowest free number, so
/// the numbers are what is judged: a number that high means that few are free. (A descriptor freed
/// lower down is taken first, so it is room too, and the numbers still in use above it are skipped
/// when the queue counts its room; what no look ahead can see is the descriptors a hand-over or
/// SQLite opens for a moment between the look and the transfer's own opens, which is why the
/// reserve is a dozen and more, not one.)
enum DescriptorReserve {
    /// The descriptors kept under a limit of 64 or more.
    static let descriptorsKept = 16

    /// The descriptors a transfer opens: its connection's socket and its staging file.
    static let descriptorsPerTransfer = 2

    /// The descriptors kept under `limit`: ``descriptorsKept``, or a quarter of a limit too small for them.
    static func reserved(under limit: Int) -> Int {
        min(descriptorsKept, limit / 4)
    }

    /// Whether a descriptor just handed out (a client's socket) is one of those kept.
    static func isReserved(_ descriptor: Int32, limit: Int) -> Bool {
        Int(descriptor) >= limit - reserved(under: limit)
    }

    /// Whether the descriptors of `transfers` transfers fit below the reserve now: the queue counts
    /// those it starts and those whose threads have not opened theirs yet, which no probe sees.
    static func hasRoom(forTransfers transfers: Int) -> Bool {
        guard let lowest = lowestFreeDescriptor() else { return false }
        let count = descriptorsPerTransfer * transfers
        // The numbers are asked in order from the lowest free one: one poll(2) answers for a window
        // of them (with room for a few still in use above a gap), where an fcntl(2) for each took
        // thirty-odd system calls per transfer started.
        var window = OpenDescriptorWindow(size: count + 8)
        return hasRoom(for: count, lowestFree: lowest, limit: limit()) { window.isOpen($0) }
    }

    /// Whether the `count` descriptors handed out next, from `lowestFree` up, all fall below the
    /// reserve of `limit`.
    ///
    /// The kernel hands out the lowest free numbers, and above a number freed lower down (the
    /// socket of a transfer that is ending) some are still in use: those are skipped, so the
    /// numbers counted are the ones the next opens get. The look stops at the first `count` free
    /// ones, a few cheap checks when the numbers above are free, as they are far from the limit.
    /// - Parameters:
    ///   - count: The descriptors to be opened.
    ///   - lowestFree: The lowest free number.
    ///   - limit: The process's limit.
    ///   - isOpen: Whether a number is in use; ``OpenDescriptorWindow`` for the process's own descriptors.
    static func hasRoom(for count: Int, lowestFree: Int, limit: Int, isOpen: (Int) -> Bool) -> Bool {
        let end = limit - reserved(under: limit)
        var free = 0
        var number = lowestFree
        while free < count {
            guard number < end else { return false }
            if !isOpen(number) { free += 1 }
            number += 1
        }
        return true
    }

    /// The process's limit on open descriptors (`RLIMIT_NOFILE`), as an `Int` (an unlimited one is `Int.max`).
    static func limit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        return Int(clamping: limit.rlim_cur)
    }

    /// The number the kernel would hand out next, or `nil` when none is left: an open of
    /// `/dev/null`, closed at once (half a microsecond; listing `/proc/self/fd` took thirty).
    static func lowestFreeDescriptor() -> Int? {
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe >= 0 else { return nil }
        close(probe)
        return Int(probe)
    }
}
