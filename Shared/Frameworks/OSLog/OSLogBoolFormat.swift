/*
Abstract:
How an interpolated Boolean is written, with Apple's names and words.
*/

/// How a Boolean interpolated into a log message is written, as in Apple's `OSLogBoolFormat`.
public enum OSLogBoolFormat: Sendable {
    /// `true` or `false`; the default.
    case truth
    /// `YES` or `NO`.
    case answer

    /// The word for `value`.
    func text(for value: Bool) -> String {
        switch self {
        case .truth: value ? "true" : "false"
        case .answer: value ? "YES" : "NO"
        }
    }
}
