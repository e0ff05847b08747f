/*
Abstract:
One line of system/trace.jsonl: who acted on whom, what happened, and for which app and download.
*/

import Foundation

/// One cross-process event, as the service appends it to `system/trace.jsonl`.
public struct TraceEntry: Codable, Sendable, Equatable {
    /// When it happened.
    public var time: Date
    /// The process that acted, such as `backgroundassetsd`, `app`, `extension`, `tool`.
    public var from: String
    /// The process it acted on, or `nobody` when an event found no one to deliver it to.
    public var to: String
    /// What happened, such as `scheduleDownload` or `downloadDidBegin`.
    public var event: String
    /// The app concerned, when there is one.
    public var app: String?
    /// The download's identifier, when there is one.
    public var download: String?
    /// A short detail, such as an error message.
    public var detail: String?
    /// The device's clock at the event, when it differs from real time (an accelerated `timeScale`,
    /// or a device clock that ran ahead); `nil` when the device's time is the real ``time``.
    public var deviceTime: Date?
    /// For an event about a download's transfer, where the transfer stood.
    public var transfer: TraceTransfer?
    /// For a signpost an app or extension emitted, which one.
    public var signpost: TraceSignpost?

    /// Creates an entry.
    public init(
        time: Date = .now, from: String, to: String, event: String, app: String? = nil, download: String? = nil,
        detail: String? = nil, deviceTime: Date? = nil, transfer: TraceTransfer? = nil, signpost: TraceSignpost? = nil
    ) {
        self.time = time
        self.from = from
        self.to = to
        self.event = event
        self.app = app
        self.download = download
        self.detail = detail
        self.deviceTime = deviceTime
        self.transfer = transfer
        self.signpost = signpost
    }

    /// The event of the samples of a download's progress, which the service writes a few times a
    /// second per transfer: `trace` leaves them out of its lines and diagrams unless asked, and the
    /// timeline draws bytes over time from them.
    public static let progressEvent = "downloadProgress"

    /// The device's time at this event: ``deviceTime`` when recorded, else the real ``time``.
    public var effectiveDeviceTime: Date { deviceTime ?? time }

    /// The entry as one line of `trace.jsonl`, newline included: keys sorted, the time in ISO 8601
    /// UTC to the millisecond, so events a few milliseconds apart keep their order when sorted by time.
    public var line: [UInt8] {
        // The service writes a line for every event, several for each download: written field by
        // field (WireJSONWriter+TraceEntry.swift), as Foundation's encoder would write it.
        var writer = WireJSONWriter()
        writer.write(self)
        writer.append("\n")
        return writer.bytes
    }

    /// ``line`` through the Codable path, newline excluded: what the hand-written line must equal.
    package var codableLine: [UInt8] {
        (try? WireJSONEncoder.encode(Line(entry: self))) ?? []
    }

    /// ``line`` with tokens in URL queries redacted: what every writer of the trace appends, the
    /// service and a process's signposts alike.
    public var redactedLine: [UInt8] {
        SecretRedaction.redacting(utf8: line)
    }

    /// What a line holds: the entry with its time as text.
    private struct Line: Encodable {
        let entry: TraceEntry

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ISO8601Timestamp.string(for: entry.time) + "Z", forKey: .time)
            try container.encode(entry.from, forKey: .from)
            try container.encode(entry.to, forKey: .to)
            try container.encode(entry.event, forKey: .event)
            try container.encodeIfPresent(entry.app, forKey: .app)
            try container.encodeIfPresent(entry.download, forKey: .download)
            try container.encodeIfPresent(entry.detail, forKey: .detail)
            try container.encodeIfPresent(entry.deviceTime.map { ISO8601Timestamp.string(for: $0) + "Z" }, forKey: .deviceTime)
            try container.encodeIfPresent(entry.transfer, forKey: .transfer)
            try container.encodeIfPresent(entry.signpost, forKey: .signpost)
        }
    }

    /// Reads a trace file's lines, skipping lines that are not entries (a line cut short by a crash).
    /// - Parameter data: The contents of `trace.jsonl`.
    /// - Returns: The entries, in file order.
    public static func entries(in data: Data) -> [TraceEntry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            if let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date"))
        }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(TraceEntry.self, from: Data($0)) }
    }
}
