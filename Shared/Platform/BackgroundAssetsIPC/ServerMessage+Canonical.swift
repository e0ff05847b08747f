/*
Abstract:
Reads the messages sent for every download straight from parsed JSON, when they have their usual shape.
*/

/// The answers and events a client receives several times for every download, read field by field.
///
/// A client of thousands of downloads decodes three events and two answers for each; through the
/// Codable containers that took a sixth of the app's time. Only the shape the service writes is
/// read here: every object with exactly its fields, each once, of the right kind. Anything else
/// (a field missing or added, a duplicate key, another message) gives `nil`, and the Codable path
/// decodes it, or says what is wrong with it. `ServerMessageCanonicalTests` checks both paths agree.
extension ServerMessage {
    init?(canonical value: WireJSONValue) {
        guard let member = Self.onlyMember(of: value) else { return nil }
        let body = member.value
        switch member.key {
        case "event":
            guard let event = Self.onlyMember(of: body), event.key == "event",
                  let decoded = ServerEvent(canonical: event.value) else { return nil }
            self = .event(decoded)
        case "response":
            guard let fields = Self.fields(of: body, ["id", "response"]),
                  let id: UInt64 = Self.integer(fields[0]), let response = ServerResponse(canonical: fields[1]) else { return nil }
            self = .response(id: id, response: response)
        default:
            return nil
        }
    }

    /// An object's one member, or `nil` for anything else.
    static func onlyMember(of value: WireJSONValue) -> (key: String, value: WireJSONValue)? {
        guard case let .object(members) = value, members.count == 1 else { return nil }
        return members[0]
    }

    /// An object's values for exactly `names`, in that order, or `nil` when it has other members,
    /// lacks one, or repeats one.
    static func fields(of value: WireJSONValue, _ names: [String]) -> [WireJSONValue]? {
        guard case let .object(members) = value, members.count == names.count else { return nil }
        var values = [WireJSONValue](repeating: .null, count: names.count)
        var found = [Bool](repeating: false, count: names.count)
        for member in members {
            guard let slot = names.firstIndex(of: member.key), !found[slot] else { return nil }
            found[slot] = true
            values[slot] = member.value
        }
        return values
    }

    static func integer<Integer: FixedWidthInteger>(_ value: WireJSONValue) -> Integer? {
        try? WireJSONScalars.integer(value)
    }

    static func string(_ value: WireJSONValue) -> String? {
        try? WireJSONScalars.string(value)
    }
}

extension ServerEvent {
    init?(canonical value: WireJSONValue) {
        guard let member = ServerMessage.onlyMember(of: value) else { return nil }
        let (name, body) = (member.key, member.value)
        switch name {
        case "didBegin", "didPause":
            guard let fields = ServerMessage.fields(of: body, ["download"]),
                  let download = DownloadDescriptor(canonical: fields[0]) else { return nil }
            self = name == "didBegin" ? .didBegin(download: download) : .didPause(download: download)
        case "didWriteBytes":
            guard let fields = ServerMessage.fields(of: body, ["download", "bytesWritten", "totalBytesWritten", "totalBytesExpectedToWrite"]),
                  let download = DownloadDescriptor(canonical: fields[0]),
                  let written: Int64 = ServerMessage.integer(fields[1]), let total: Int64 = ServerMessage.integer(fields[2]),
                  let expected: Int64 = ServerMessage.integer(fields[3]) else { return nil }
            self = .didWriteBytes(download: download, bytesWritten: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
        case "finished":
            guard let fields = ServerMessage.fields(of: body, ["deliveryID", "download", "filePath"]),
                  let deliveryID: UInt64 = ServerMessage.integer(fields[0]), let download = DownloadDescriptor(canonical: fields[1]),
                  let filePath = ServerMessage.string(fields[2]) else { return nil }
            self = .finished(deliveryID: deliveryID, download: download, filePath: filePath)
        default:
            return nil
        }
    }
}

extension ServerResponse {
    init?(canonical value: WireJSONValue) {
        guard let member = ServerMessage.onlyMember(of: value) else { return nil }
        let (name, body) = (member.key, member.value)
        switch name {
        case "done":
            guard case let .object(members) = body, members.isEmpty else { return nil }
            self = .done
        case "download":
            guard let fields = ServerMessage.fields(of: body, ["download"]),
                  let download = DownloadDescriptor(canonical: fields[0]) else { return nil }
            self = .download(download)
        default:
            return nil
        }
    }
}

extension DownloadDescriptor {
    private static let wireNames = [
        "applicationGroupIdentifier", "fileSize", "headers", "identifier", "isEssential", "kind", "priority", "state",
        "uniqueIdentifier", "url",
    ]

    init?(canonical value: WireJSONValue) {
        guard let fields = ServerMessage.fields(of: value, Self.wireNames),
              let group = ServerMessage.string(fields[0]), let fileSize: Int = ServerMessage.integer(fields[1]),
              case let .object(headerMembers) = fields[2],
              let identifier = ServerMessage.string(fields[3]), case let .bool(isEssential) = fields[4],
              let kind = ServerMessage.string(fields[5]).flatMap(Kind.init(rawValue:)),
              let priority: Int = ServerMessage.integer(fields[6]),
              let state = ServerMessage.integer(fields[7]).flatMap(State.init(rawValue:)),
              let uniqueIdentifier = ServerMessage.string(fields[8]), let url = ServerMessage.string(fields[9])
        else { return nil }
        var headers: [String: String] = [:]
        for member in headerMembers {
            guard headers[member.key] == nil, let field = ServerMessage.string(member.value) else { return nil }
            headers[member.key] = field
        }
        self.init(
            identifier: identifier, uniqueIdentifier: uniqueIdentifier, kind: kind, url: url, headers: headers,
            fileSize: fileSize, applicationGroupIdentifier: group, priority: priority, isEssential: isEssential, state: state)
    }
}

extension ServerMessage {
    /// Whether `payload` is read field by field rather than through the Codable containers, for tests.
    package static func isReadFieldByField(_ payload: some Collection<UInt8>) -> Bool {
        guard let value = try? WireJSONParser.parse(payload) else { return false }
        return ServerMessage(canonical: value) != nil
    }
}
