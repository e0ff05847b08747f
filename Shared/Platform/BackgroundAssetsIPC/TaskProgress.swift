/*
Abstract:
What a running continued-processing task reports: its progress, and the title and subtitle shown with it.
*/

/// The progress of a running continued-processing task, as the app reports it and `tasks` shows it.
public struct TaskProgress: Codable, Sendable, Equatable {
    /// The units of work done.
    public var completedUnitCount: Int64
    /// The units of work in all; 0 or less while unknown.
    public var totalUnitCount: Int64
    /// The title shown, as `updateTitle(_:subtitle:)` last set it.
    public var title: String
    /// The subtitle shown.
    public var subtitle: String

    /// Creates a progress report.
    public init(completedUnitCount: Int64, totalUnitCount: Int64, title: String, subtitle: String) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.title = title
        self.subtitle = subtitle
    }

    /// The fraction done, between 0 and 1, or `nil` while the total is unknown.
    public var fractionCompleted: Double? {
        guard totalUnitCount > 0 else { return nil }
        return min(max(Double(completedUnitCount) / Double(totalUnitCount), 0), 1)
    }

    /// `45% (45 of 100)`, or `12 done` while the total is unknown.
    public var summary: String {
        guard let fraction = fractionCompleted else { return "\(completedUnitCount) done" }
        return "\(Int((fraction * 100).rounded(.down)))% (\(completedUnitCount) of \(totalUnitCount))"
    }
}
