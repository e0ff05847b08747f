/*
Abstract:
The signpost a trace line records: the interval or event an app or extension marked with OSSignposter.
*/

/// A signpost, as a trace line records it: which interval or event of which process, so a begin
/// and its end can be paired.
///
/// An app or extension writes these lines itself (the service never sees a signpost): events
/// `signpostBegin`, `signpostEnd` and `signpostEvent`, with the signpost's message in the detail.
public struct TraceSignpost: Codable, Sendable, Equatable {
    /// The signpost's name, such as `Load manifest`.
    public var name: String
    /// The signpost ID that pairs a begin with its end.
    public var id: UInt64
    /// The signposter's subsystem.
    public var subsystem: String
    /// The signposter's category.
    public var category: String
    /// The process that emitted it, since two processes may use the same ID.
    public var process: Int32

    /// Creates a record of a signpost.
    public init(name: String, id: UInt64, subsystem: String, category: String, process: Int32) {
        self.name = name
        self.id = id
        self.subsystem = subsystem
        self.category = category
        self.process = process
    }

    /// The events of signpost lines.
    public static let beginEvent = "signpostBegin"
    public static let endEvent = "signpostEnd"
    public static let emitEvent = "signpostEvent"
}
