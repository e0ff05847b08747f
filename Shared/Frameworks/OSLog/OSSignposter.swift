/*
Abstract:
Apple's OSSignposter: named intervals and events of a subsystem and category, for measuring how long work takes.
*/

import BackgroundAssetsIPC
import Foundation

/// The message attached to a signpost: a string literal with interpolations, as a ``Logger``'s message.
public typealias SignpostMetadata = OSLogMessage

/// An object for measuring task performance with signposts, as Apple's `OSSignposter`.
///
/// ```swift
/// let signposter = OSSignposter(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "downloads")
/// let state = signposter.beginInterval("Load manifest", id: signposter.makeSignpostID())
/// ...
/// signposter.endInterval("Load manifest", state, "\(sessions.count) sessions")
/// ```
/// Each signpost is a line in the device log (`system/log`): `signpost begin "Load manifest" id 1`,
/// and at the end how long the interval took; and a line of the device's trace, so
/// `backgroundassets-debug trace` lists it among the system's events and `trace --svg` draws each
/// interval in a Signposts row of its timeline.
/// - Note: Apple's signposts go to the unified logging system, where Instruments shows them. An
///   end that reuses a state, or names another interval, is recorded with an error message, as in
///   Apple's production builds; here that is also what a debug build does, instead of stopping.
public struct OSSignposter: Sendable {
    /// The subsystem and category of the signposts, and whether they are written at all.
    private let log: OSLog
    private let recorder: SignpostRecorder

    init(log: OSLog, recorder: SignpostRecorder) {
        self.log = log
        self.recorder = recorder
    }

    /// Creates a signposter for a subsystem and category.
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the bundle identifier.
    ///   - category: The category, shown in brackets on every line.
    public init(subsystem: String, category: String) {
        self.init(log: OSLog(subsystem: subsystem, category: category), recorder: .shared)
    }

    /// Creates a signposter that uses the subsystem and category of a logger.
    /// - Parameter logger: The logger.
    public init(logger: Logger) {
        self.init(subsystem: logger.subsystem, category: logger.category)
    }

    /// Creates a signposter that uses the subsystem and category of a log; ``OSLog/disabled`` makes
    /// one that writes nothing.
    /// - Parameter logHandle: The log.
    public init(logHandle: OSLog) {
        self.init(log: logHandle, recorder: .shared)
    }

    /// Creates a signposter of the default log.
    public init() {
        self.init(logHandle: .default)
    }

    /// A signposter that writes nothing.
    public static var disabled: OSSignposter { OSSignposter(logHandle: .disabled) }

    /// Whether signposts are written: `false` only for a disabled signposter. (`BA_LOG_LEVEL` above
    /// `info` keeps their log lines out, as a logger's, but not their trace lines.)
    public var isEnabled: Bool { !log.isDisabled }

    /// Makes an identifier unique within this process, for intervals of the same name that may overlap.
    public func makeSignpostID() -> OSSignpostID {
        OSSignpostID(log: log)
    }

    /// Makes an identifier from an object, the same each time for the same object.
    /// - Parameter object: The object.
    public func makeSignpostID(from object: AnyObject) -> OSSignpostID {
        OSSignpostID(log: log, object: object)
    }

    /// Begins a signposted interval.
    /// - Parameters:
    ///   - name: The interval's name; its end must give the same.
    ///   - id: The identifier; ``OSSignpostID/exclusive`` when intervals of this name never overlap.
    /// - Returns: The state to give ``endInterval(_:_:)``.
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
        begin(name, id: id, message: nil)
    }

    /// Begins a signposted interval with a message.
    /// - Parameters:
    ///   - name: The interval's name; its end must give the same.
    ///   - id: The identifier; ``OSSignpostID/exclusive`` when intervals of this name never overlap.
    ///   - message: The message, with `privacy:` and format options on its interpolations.
    /// - Returns: The state to give ``endInterval(_:_:_:)``.
    public func beginInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
    ) -> OSSignpostIntervalState {
        begin(name, id: id, message: message.text)
    }

    /// Begins a signposted interval that measures an animation; recorded as any other interval here.
    /// - Parameters:
    ///   - name: The interval's name.
    ///   - id: The identifier.
    ///   - message: The message.
    /// - Returns: The state to give ``endInterval(_:_:_:)``.
    public func beginAnimationInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
    ) -> OSSignpostIntervalState {
        begin(name, id: id, message: message.text)
    }

    /// Ends a signposted interval.
    /// - Parameters:
    ///   - name: The name the interval began with.
    ///   - state: What its begin returned.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {
        end(name, state, message: nil)
    }

    /// Ends a signposted interval with a message.
    /// - Parameters:
    ///   - name: The name the interval began with.
    ///   - state: What its begin returned.
    ///   - message: The message.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata) {
        end(name, state, message: message.text)
    }

    /// Marks a point of interest in time.
    /// - Parameters:
    ///   - name: The event's name.
    ///   - id: The identifier.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {
        record(.event, name.description, id: id, message: nil)
    }

    /// Marks a point of interest in time, with a message.
    /// - Parameters:
    ///   - name: The event's name.
    ///   - id: The identifier.
    ///   - message: The message.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) {
        record(.event, name.description, id: id, message: message.text)
    }

    /// Runs a closure inside a signposted interval, which ends when the closure returns or throws.
    /// - Parameters:
    ///   - name: The interval's name.
    ///   - id: The identifier.
    ///   - task: The work to measure.
    /// - Returns: What `task` returns.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: OSSignpostID = .exclusive, around task: () throws -> T
    ) rethrows -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try task()
    }

    /// Runs a closure inside a signposted interval that begins with a message.
    /// - Parameters:
    ///   - name: The interval's name.
    ///   - id: The identifier.
    ///   - message: The begin's message.
    ///   - task: The work to measure.
    /// - Returns: What `task` returns.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata, around task: () throws -> T
    ) rethrows -> T {
        let state = beginInterval(name, id: id, message)
        defer { endInterval(name, state) }
        return try task()
    }

    // MARK: - Recording

    /// Writes a signpost of `os_signpost`'s kind, which carries no interval state.
    func emit(_ type: OSSignpostType, _ name: StaticString, id: OSSignpostID, message: String?) {
        let kind: SignpostRecorder.Kind = switch type {
        case .begin: .begin
        case .end: .end
        default: .event
        }
        record(kind, name.description, id: id, message: message)
    }

    private func begin(_ name: StaticString, id: OSSignpostID, message: String?) -> OSSignpostIntervalState {
        record(.begin, name.description, id: id, message: message)
        return OSSignpostIntervalState(id: id, name: name.description, start: .now)
    }

    private func end(_ name: StaticString, _ state: OSSignpostIntervalState, message: String?) {
        var notes: [String] = []
        if let start = state.start {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
            notes.append("after \(String(format: "%.1f", milliseconds)) ms")
        }
        if state.markEnded() { notes.append("error: this interval state was already ended") }
        if let began = state.name, began != name.description { notes.append("error: the interval began as \"\(began)\"") }
        let detail = ([message].compactMap { $0 } + notes).joined(separator: "; ")
        record(.end, name.description, id: state.signpostID, message: detail.isEmpty ? nil : detail)
    }

    private func record(_ kind: SignpostRecorder.Kind, _ name: String, id: OSSignpostID, message: String?) {
        guard isEnabled else { return }
        let signpost = TraceSignpost(
            name: name, id: id.rawValue, subsystem: log.subsystem, category: log.category, process: getpid())
        recorder.record(kind, signpost, log: log, detail: message)
    }
}
