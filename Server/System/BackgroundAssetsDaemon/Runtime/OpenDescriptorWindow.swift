/*
Abstract:
Which of the process's descriptor numbers are in use, looked up a window at a time with one poll(2).
*/

import Foundation

/// Answers whether descriptor numbers are in use, for numbers asked in increasing order.
///
/// `poll(2)` with no events asked reports `POLLNVAL` for a number that is not open and never for
/// one that is, so one call looks at a whole window of numbers; the next window is looked at only
/// when a number past this one is asked.
struct OpenDescriptorWindow {
    private let size: Int
    private var start = 0
    private var inUse: [Bool] = []

    /// - Parameter size: How many numbers one `poll(2)` looks at.
    init(size: Int) {
        self.size = max(1, size)
    }

    /// Whether `number` is one of the process's open descriptors.
    mutating func isOpen(_ number: Int) -> Bool {
        if number < start || number >= start + inUse.count { look(from: number) }
        return inUse[number - start]
    }

    private mutating func look(from first: Int) {
        var descriptors = (0..<size).map { pollfd(fd: Int32(clamping: first + $0), events: 0, revents: 0) }
        start = first
        // Nothing is waited for (a timeout of 0), and an interrupted call is simply asked again.
        var result = poll(&descriptors, nfds_t(descriptors.count), 0)
        while result < 0, errno == EINTR { result = poll(&descriptors, nfds_t(descriptors.count), 0) }
        guard result >= 0 else {
            // A window larger than the limit on open descriptors is refused (EINVAL): each number is asked alone.
            inUse = descriptors.map { fcntl($0.fd, F_GETFD) != -1 }
            return
        }
        inUse = descriptors.map { $0.revents & Int16(POLLNVAL) == 0 }
    }
}
