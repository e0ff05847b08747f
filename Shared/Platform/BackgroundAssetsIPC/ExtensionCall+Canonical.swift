/*
Abstract:
Reads the failed-download notice an extension is sent for every download an install refuses, straight from parsed JSON, when it has its usual shape.
*/

/// The `backgroundDownload(_:failedWithError:)` call, read field by field as the events sent for
/// every download are (ServerMessage+Canonical.swift): only the shape the service writes, anything
/// else through the Codable path. `ServerMessageCanonicalTests` checks both paths agree.
extension ExtensionCall {
    init?(canonical value: WireJSONValue) {
        guard let member = value.onlyMember, member.key == CodingKeys.failed.rawValue,
              let fields = member.value.fields([FailedCodingKeys.download, FailedCodingKeys.failure].map(\.rawValue)),
              let download = DownloadDescriptor(canonical: fields[0]),
              let failure = WireFailure(canonical: fields[1]) else { return nil }
        self = .failed(download: download, failure: failure)
    }

    /// Whether this call is written field by field rather than through the Codable containers, for tests.
    package var isWrittenFieldByField: Bool {
        WireJSONWriter.fieldByField(self) != nil
    }

    /// Whether `payload` is read field by field rather than through the Codable containers, for tests.
    package static func isReadFieldByField(_ payload: some Collection<UInt8>) -> Bool {
        guard let value = try? WireJSONParser.parse(payload) else { return false }
        return ExtensionCall(canonical: value) != nil
    }
}

extension WireFailure {
    init?(canonical value: WireJSONValue) {
        guard let fields = value.fields(["code", "domain", "message"]),
              let code: Int = fields[0].integerValue(),
              let domain = fields[1].stringValue, let message = fields[2].stringValue else { return nil }
        self.init(domain: domain, code: code, message: message)
    }
}
