/*
Abstract:
Carries a value that is not Sendable (a handler, a delegate, a challenge) where Apple's API promises one thread at a time.
*/

/// Moves a non-`Sendable` value (a completion or launch handler, a delegate, a challenge) to the
/// thread that uses it, or keeps it behind a lock: the one unchecked box of both frameworks.
///
/// Apple's API does not require `Sendable` handlers or delegates (they are Objective-C blocks and
/// objects), so code written for Apple's SDK captures non-`Sendable` state in them, and the
/// frameworks cannot require more; yet they must hand them to the thread or queue that calls them.
/// Every use keeps the rule that makes the unchecked conformance sound: the value is handed from the
/// caller's thread to exactly one other thread, or stored under a lock and taken out to be called,
/// and it is never used from two threads at the same time. Background Assets calls a handler once or
/// in order on its callback thread; Background Tasks calls a launch or expiration handler on the queue
/// its documentation names, never concurrently with itself.
package struct UncheckedReference<Value>: @unchecked Sendable {
    /// The value.
    package let value: Value

    /// Wraps a value.
    /// - Parameter value: The value to carry.
    package init(_ value: Value) {
        self.value = value
    }
}
