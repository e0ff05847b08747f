/*
Abstract:
Carries a value that is not Sendable to the one thread that uses it next.
*/

/// Moves a non-`Sendable` value (a completion handler, a delegate, a challenge) to the thread that
/// uses it next.
///
/// Apple's API does not require `Sendable` completion handlers or delegates, so the framework cannot
/// either, yet it must pass them to the thread that calls them. Every use hands the value from the
/// caller's thread to exactly one other thread, which calls it once or in order; the value is never
/// used from two threads at the same time, which is what makes the unchecked conformance sound.
struct UncheckedReference<Value>: @unchecked Sendable {
    /// The value.
    let value: Value

    /// Wraps a value.
    /// - Parameter value: The value to carry.
    init(_ value: Value) {
        self.value = value
    }
}
