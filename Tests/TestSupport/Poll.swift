/*
Abstract:
Waits for a condition with a deadline, so tests never stand a fixed sleep in for synchronisation.
*/

import Foundation

/// How long a poll waits by default: a bound a busy machine cannot reach, since a deadline only
/// ends a wait that would otherwise fail anyway.
///
/// Waits in the test process go hop after hop on Swift's global executor, which has a thread per
/// core, and a test run starts every test of the process at once. With two targets of in-process
/// tests running on a loaded machine (load average 26 on two cores), one 10-millisecond sleep came
/// back 33 seconds late, and the invalidation of a background session, a chain of eight such hops
/// that takes half a second alone, passed a 30-second bound.
public let defaultPollTimeout: Duration = .seconds(120)

/// Checks `condition` repeatedly until it holds or the deadline passes.
/// - Parameters:
///   - condition: The state to wait for; checked at once and then every `interval`.
///   - timeout: How long to wait before giving up.
///   - interval: The pause between two checks.
///   - description: What is awaited, for the error message.
/// - Throws: `TestSupportError` when the deadline passes first, or what `condition` throws.
public func poll(
    until condition: () async throws -> Bool,
    timeout: Duration = defaultPollTimeout,
    interval: Duration = .milliseconds(10),
    _ description: @autoclosure () -> String = "the condition",
    isolation: isolated (any Actor)? = #isolation
) async throws {
    _ = try await poll(timeout: timeout, interval: interval, description()) { () -> Bool? in
        try await condition() ? true : nil
    }
}

/// Calls `produce` repeatedly until it returns a value or the deadline passes.
/// - Parameters:
///   - timeout: How long to wait before giving up.
///   - interval: The pause between two calls.
///   - description: What is awaited, for the error message.
///   - produce: Returns the awaited value, or nil while it is not there yet.
/// - Returns: The first value `produce` returned.
/// - Throws: `TestSupportError` when the deadline passes first, or what `produce` throws.
public func poll<T>(
    timeout: Duration = defaultPollTimeout,
    interval: Duration = .milliseconds(10),
    _ description: @autoclosure () -> String = "a value",
    isolation: isolated (any Actor)? = #isolation,
    produce: () async throws -> T?
) async throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if let value = try await produce() {
            return value
        }
        if clock.now >= deadline {
            throw timedOut(after: timeout, waitingFor: description())
        }
        try await Task.sleep(for: interval)
    }
}

/// Checks `condition` on the calling thread until it holds or the deadline passes; call it from a
/// thread of its own (``blocking(_:)``).
///
/// A poll's checks wait for Swift's global executor, which a crowded test process can leave
/// unscheduled for seconds. What must follow a condition within milliseconds (stopping a server the
/// moment a transfer has moved enough bytes, before the transfer can end) checks here instead, on a
/// thread the kernel schedules like any other.
/// - Parameters:
///   - condition: The state to wait for; checked at once and then every `interval`.
///   - timeout: How long to wait before giving up.
///   - interval: The pause between two checks.
///   - description: What is awaited, for the error message.
/// - Throws: `TestSupportError` when the deadline passes first, or what `condition` throws.
public func pollOnThisThread(
    until condition: () throws -> Bool,
    timeout: Duration = defaultPollTimeout,
    interval: Duration = .milliseconds(2),
    _ description: @autoclosure () -> String = "the condition"
) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while try !condition() {
        if clock.now >= deadline {
            throw timedOut(after: timeout, waitingFor: description())
        }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
}

/// The error of a wait whose deadline passed, pointing to the logs of the code under test.
private func timedOut(after timeout: Duration, waitingFor description: String) -> TestSupportError {
    TestSupportError("Timed out after \(timeout) waiting for \(description). "
        + "The log lines of the code under test are in \(TestLogs.folder.path).")
}
