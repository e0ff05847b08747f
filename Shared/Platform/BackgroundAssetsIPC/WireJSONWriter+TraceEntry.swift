/*
Abstract:
Writes a trace entry as the protocol's JSON directly, without building a tree first.
*/

/// A trace entry, field by field in sorted key order, optionals left out when absent: the bytes
/// ``TraceEntry/codableLine`` writes, which `TraceEntryTests` compares for entries with every field
/// set and with none of the optional ones. The service writes several lines for each download, and
/// the tree cost more than the rest of an event's handling.
extension WireJSONWriter {
    /// Writes an entry, its times in ISO 8601 UTC to the millisecond.
    mutating func write(_ entry: TraceEntry) {
        append("{")
        var isFirst = true
        if let app = entry.app { member("app", &isFirst); write(app) }
        if let detail = entry.detail { member("detail", &isFirst); write(detail) }
        if let deviceTime = entry.deviceTime { member("deviceTime", &isFirst); write(ISO8601Timestamp.string(for: deviceTime) + "Z") }
        if let download = entry.download { member("download", &isFirst); write(download) }
        member("event", &isFirst)
        write(entry.event)
        member("from", &isFirst)
        write(entry.from)
        if let signpost = entry.signpost {
            member("signpost", &isFirst)
            write(signpost)
        }
        member("time", &isFirst)
        write(ISO8601Timestamp.string(for: entry.time) + "Z")
        member("to", &isFirst)
        write(entry.to)
        if let transfer = entry.transfer {
            member("transfer", &isFirst)
            write(transfer)
        }
        append("}")
    }

    private mutating func write(_ signpost: TraceSignpost) {
        append("{\"category\":")
        write(signpost.category)
        append(",\"id\":")
        append(signpost.id)
        append(",\"name\":")
        write(signpost.name)
        append(",\"process\":")
        append(signpost.process)
        append(",\"subsystem\":")
        write(signpost.subsystem)
        append("}")
    }

    private mutating func write(_ transfer: TraceTransfer) {
        append("{\"essential\":")
        append(transfer.essential)
        if let expected = transfer.expected {
            append(",\"expected\":")
            append(expected)
        }
        append(",\"foreground\":")
        append(transfer.foreground)
        append(",\"priority\":")
        append(transfer.priority)
        append(",\"written\":")
        append(transfer.written)
        append("}")
    }

    /// Starts a member: the comma before every one but the first, then its key.
    private mutating func member(_ key: String, _ isFirst: inout Bool) {
        if !isFirst { append(",") }
        isFirst = false
        self.key(key)
    }
}
