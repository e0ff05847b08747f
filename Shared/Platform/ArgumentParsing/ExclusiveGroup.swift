/*
Abstract:
Options given one at a time, such as trace's outputs: a name shared by their declarations, and whether one is required.
*/

/// Options of which at most one may be given (exactly one when required), such as `trace`'s outputs.
/// The usage line shows them as `[--mermaid | --svg FILE]`, and the parser refuses two of them.
public struct ExclusiveGroup: Sendable, Hashable {
    /// What the options are alternatives for, such as `output`; it only tells groups apart.
    public var name: String
    /// Whether one of them must be given.
    public var isRequired: Bool

    /// Creates a group.
    public init(_ name: String, isRequired: Bool) {
        self.name = name
        self.isRequired = isRequired
    }
}
