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
        guard let member = value.onlyMember else { return nil }
        switch CodingKeys(rawValue: member.key) {
        case .event:
            guard let event = member.value.onlyMember, event.key == EventCodingKeys._0.rawValue,
                  let decoded = ServerEvent(canonical: event.value) else { return nil }
            self = .event(decoded)
        case .response:
            guard let fields = member.value.fields([ResponseCodingKeys.id.rawValue, ResponseCodingKeys.response.rawValue]),
                  let id: UInt64 = fields[0].integerValue(), let response = ServerResponse(canonical: fields[1]) else { return nil }
            self = .response(id: id, response: response)
        case nil:
            return nil
        }
    }
}

extension ServerEvent {
    init?(canonical value: WireJSONValue) {
        guard let member = value.onlyMember else { return nil }
        switch CodingKeys(rawValue: member.key) {
        case .didBegin:
            guard let download = member.value.download(onlyMember: DidBeginCodingKeys.download) else { return nil }
            self = .didBegin(download: download)
        case .didPause:
            guard let download = member.value.download(onlyMember: DidPauseCodingKeys.download) else { return nil }
            self = .didPause(download: download)
        case .didWriteBytes:
            typealias Keys = DidWriteBytesCodingKeys
            guard let fields = member.value.fields([Keys.download, Keys.bytesWritten, Keys.totalBytesWritten, Keys.totalBytesExpectedToWrite].map(\.rawValue)),
                  let download = DownloadDescriptor(canonical: fields[0]),
                  let written: Int64 = fields[1].integerValue(), let total: Int64 = fields[2].integerValue(),
                  let expected: Int64 = fields[3].integerValue() else { return nil }
            self = .didWriteBytes(download: download, bytesWritten: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
        case .finished:
            typealias Keys = FinishedCodingKeys
            guard let fields = member.value.fields([Keys.deliveryID, Keys.download, Keys.filePath].map(\.rawValue)),
                  let deliveryID: UInt64 = fields[0].integerValue(), let download = DownloadDescriptor(canonical: fields[1]),
                  let filePath = fields[2].stringValue else { return nil }
            self = .finished(deliveryID: deliveryID, download: download, filePath: filePath)
        case .extensionCall:
            typealias Keys = ExtensionCallCodingKeys
            guard let fields = member.value.fields([Keys.call, Keys.callID].map(\.rawValue)),
                  let call = ExtensionCall(canonical: fields[0]), let callID: UInt64 = fields[1].integerValue() else { return nil }
            self = .extensionCall(callID: callID, call: call)
        default:
            return nil
        }
    }
}

extension ServerResponse {
    init?(canonical value: WireJSONValue) {
        guard let member = value.onlyMember else { return nil }
        switch CodingKeys(rawValue: member.key) {
        case .done:
            guard member.value.isEmptyObject else { return nil }
            self = .done
        case .download:
            guard let download = member.value.download(onlyMember: DownloadCodingKeys._0) else { return nil }
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
        guard let fields = value.fields(Self.wireNames),
              let group = fields[0].stringValue, let fileSize: Int = fields[1].integerValue(),
              case let .object(headerMembers) = fields[2],
              let identifier = fields[3].stringValue, case let .bool(isEssential) = fields[4],
              let kind = fields[5].stringValue.flatMap(Kind.init(rawValue:)),
              let priority: Int = fields[6].integerValue(),
              let state = fields[7].integerValue().flatMap(State.init(rawValue:)),
              let uniqueIdentifier = fields[8].stringValue, let url = fields[9].stringValue
        else { return nil }
        var headers: [String: String] = [:]
        for member in headerMembers {
            guard headers[member.key] == nil, let field = member.value.stringValue else { return nil }
            headers[member.key] = field
        }
        self.init(
            identifier: identifier, uniqueIdentifier: uniqueIdentifier, kind: kind, url: url, headers: headers,
            fileSize: fileSize, applicationGroupIdentifier: group, priority: priority, isEssential: isEssential, state: state)
    }
}

extension WireJSONValue {
    /// Whether this is `{}`, what a case without values is written as.
    var isEmptyObject: Bool {
        guard case let .object(members) = self else { return false }
        return members.isEmpty
    }

    /// An object's one member, or `nil` for anything else.
    var onlyMember: (key: String, value: WireJSONValue)? {
        guard case let .object(members) = self, members.count == 1 else { return nil }
        return members[0]
    }

    /// An object's values for exactly `names`, in that order, or `nil` when it has other members,
    /// lacks one, or repeats one.
    func fields(_ names: [String]) -> [WireJSONValue]? {
        guard case let .object(members) = self, members.count == names.count else { return nil }
        var values = [WireJSONValue](repeating: .null, count: names.count)
        var found = [Bool](repeating: false, count: names.count)
        for member in members {
            guard let slot = names.firstIndex(of: member.key), !found[slot] else { return nil }
            found[slot] = true
            values[slot] = member.value
        }
        return values
    }

    /// The download of an object whose only member is `key`, or `nil` for any other shape.
    func download(onlyMember key: some CodingKey) -> DownloadDescriptor? {
        fields([key.stringValue]).flatMap { DownloadDescriptor(canonical: $0[0]) }
    }

    /// The string, or `nil` for any other kind.
    var stringValue: String? { try? WireJSONScalars.string(self) }

    /// The number as `Integer`, by the Codable path's rules, or `nil`.
    func integerValue<Integer: FixedWidthInteger>() -> Integer? { try? WireJSONScalars.integer(self) }
}

extension ServerMessage {
    /// Whether this message is written field by field rather than through the Codable containers, for tests.
    package var isWrittenFieldByField: Bool {
        WireJSONWriter.fieldByField(self) != nil
    }

    /// Whether `payload` is read field by field rather than through the Codable containers, for tests.
    package static func isReadFieldByField(_ payload: some Collection<UInt8>) -> Bool {
        guard let value = try? WireJSONParser.parse(payload) else { return false }
        return ServerMessage(canonical: value) != nil
    }
}
