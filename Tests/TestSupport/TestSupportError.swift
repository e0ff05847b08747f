/*
Abstract:
The one error type of the test helpers: a sentence that says what went wrong and what to do next.
*/

/// An error thrown by the test helpers, described by a full sentence that names the offending value.
public struct TestSupportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence that says what happened and, where possible, what to do next.
    public let description: String

    /// Creates an error with a sentence that describes it.
    /// - Parameter description: What happened, naming the offending value.
    public init(_ description: String) {
        self.description = description
    }
}
