/*
Abstract:
The mutable side of the fault knobs: how many injected failures each path has left, shared by all connections.
*/

import Synchronization

/// Counts down injected failures across every connection of one server.
final class FaultState: Sendable {
    let faults: Faults
    private let rulesByPath: [String: FailureRule]
    private let remaining: Mutex<[String: Int]>

    init(faults: Faults) {
        self.faults = faults
        // The last rule for a path wins, like the last repeated flag on a command line.
        var rules: [String: FailureRule] = [:]
        for rule in faults.failures { rules[rule.path] = rule }
        rulesByPath = rules
        remaining = Mutex(rules.compactMapValues(\.count))
    }

    /// Returns the status to answer instead of serving `path`, consuming one failure when the rule has a count.
    func injectedStatus(for path: String) -> Int? {
        guard !rulesByPath.isEmpty, let rule = rulesByPath[path] else { return nil }
        guard rule.count != nil else { return rule.status }
        return remaining.withLock { counts in
            guard let left = counts[path], left > 0 else { return nil }
            counts[path] = left - 1
            return rule.status
        }
    }

    /// Whether responses for `path` have bytes flipped.
    func corrupts(_ path: String) -> Bool {
        !faults.corruptedPaths.isEmpty && faults.corruptedPaths.contains(path)
    }
}

/// The deterministic damage `--corrupt` does: every byte whose file offset is a multiple of 4096 is inverted.
///
/// Working from the file offset, not the response offset, means a range request sees the same damage
/// as a full download, so a client resuming a corrupted file still ends up with the wrong checksum.
enum Corruption {
    static let stride: Int64 = 4096

    /// Flips the affected bytes of `buffer`, which holds the file's bytes starting at `fileOffset`.
    static func apply(to buffer: UnsafeMutableRawBufferPointer, fileOffset: Int64) {
        guard !buffer.isEmpty else { return }
        let remainder = fileOffset % stride
        var index = remainder == 0 ? 0 : Int(stride - remainder)
        while index < buffer.count {
            buffer[index] ^= 0xFF
            index += Int(stride)
        }
    }
}
