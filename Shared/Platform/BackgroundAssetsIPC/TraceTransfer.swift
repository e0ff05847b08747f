/*
Abstract:
A download's transfer as a trace entry records it: bytes on disk, size, and how it runs, for drawing a timeline.
*/

/// Where a download's transfer stood when a trace entry was written: enough to draw its bytes
/// over time, and how it ran (foreground or background, essential, its priority).
///
/// The service attaches one to the entries about a download's transfer (`downloadDidBegin`,
/// `downloadDidPause`, `downloadProgress`, `finishedWithFileURL`, `failedWithError`), so the
/// trace alone can be drawn as bytes over time by `backgroundassets-debug trace --svg`.
public struct TraceTransfer: Codable, Sendable, Equatable {
    /// The bytes of the file written so far (on a resume, counted from the file's start).
    public var written: Int64
    /// The file's size, when known: the server's length, else the size the download declared.
    public var expected: Int64?
    /// Whether the download runs in the foreground, started or promoted by the app.
    public var foreground: Bool
    /// Whether the download is essential, part of an install or update.
    public var essential: Bool
    /// The download's priority, from `BADownload.Priority.min` (-1000) to `.max` (1000).
    public var priority: Int

    /// Creates a transfer record.
    /// - Parameters:
    ///   - written: The bytes of the file written so far.
    ///   - expected: The file's size, when known.
    ///   - foreground: Whether the download runs in the foreground.
    ///   - essential: Whether the download is essential.
    ///   - priority: The download's priority.
    public init(written: Int64, expected: Int64?, foreground: Bool, essential: Bool, priority: Int) {
        self.written = written
        self.expected = expected
        self.foreground = foreground
        self.essential = essential
        self.priority = priority
    }

    /// The part of the file written, from 0 to 1, or `nil` when the size is not known.
    public var fractionWritten: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, max(0, Double(written) / Double(expected)))
    }
}
