/*
Abstract:
Writes the extension call an install sends for every download past the app's allowance as the protocol's JSON directly, without building a tree first.
*/

/// The `backgroundDownload(_:failedWithError:)` call, field by field in sorted key order: the bytes
/// the Codable path writes, which `ServerMessageCanonicalTests` compares with hostile text in every
/// string. At 100,000 sessions an install refuses about 93,000 downloads past the allowance, and
/// each is one of these calls, written into the notice backlog, read back, and sent.
extension WireJSONWriter {
    /// The JSON of `call` when it is a failed-download notice, or `nil` for any other call, which
    /// the Codable path writes.
    static func fieldByField(_ call: ExtensionCall) -> [UInt8]? {
        var writer = WireJSONWriter()
        guard writer.write(call) else { return nil }
        return writer.bytes
    }

    /// Writes a failed-download notice; `false` for any other call, with the writer's bytes then of no use.
    mutating func write(_ call: ExtensionCall) -> Bool {
        guard case let .failed(download, failure) = call else { return false }
        typealias Keys = ExtensionCall.FailedCodingKeys
        open(ExtensionCall.CodingKeys.failed)
        key(Keys.download)
        write(download)
        append(",")
        key(Keys.failure)
        write(failure)
        append("}}")
        return true
    }
}
