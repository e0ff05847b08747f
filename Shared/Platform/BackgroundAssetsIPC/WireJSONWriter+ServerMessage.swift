/*
Abstract:
Writes the messages sent for every download as the protocol's JSON directly, without building a tree first.
*/

/// The events and answers the service sends several times for every download, field by field in
/// sorted key order: the bytes the Codable path writes, which `ServerMessageCanonicalTests`
/// compares for every such message, with hostile text in each string. The service sends three
/// events and two answers for every download, and building each one's tree took a tenth of its time;
/// an extension is sent a failed-download notice for every download an install refuses.
extension WireJSONWriter {
    /// The JSON of `message` when it is one of the messages sent for every download, or `nil` for
    /// any other, which the Codable path writes.
    static func fieldByField(_ message: ServerMessage) -> [UInt8]? {
        var writer = WireJSONWriter()
        switch message {
        case let .event(event):
            writer.open(ServerMessage.CodingKeys.event)
            writer.key(ServerMessage.EventCodingKeys._0)
            guard writer.write(event) else { return nil }
            writer.append("}}")
        case let .response(id, response):
            writer.open(ServerMessage.CodingKeys.response)
            writer.key(ServerMessage.ResponseCodingKeys.id)
            writer.append(id)
            writer.append(",")
            writer.key(ServerMessage.ResponseCodingKeys.response)
            guard writer.write(response) else { return nil }
            writer.append("}}")
        }
        return writer.bytes
    }

    /// Writes the events sent for every download; `false` for any other, with the writer's bytes then of no use.
    private mutating func write(_ event: ServerEvent) -> Bool {
        switch event {
        case let .didBegin(download):
            open(ServerEvent.CodingKeys.didBegin)
            key(ServerEvent.DidBeginCodingKeys.download)
            write(download)
        case let .didPause(download):
            open(ServerEvent.CodingKeys.didPause)
            key(ServerEvent.DidPauseCodingKeys.download)
            write(download)
        case let .didWriteBytes(download, written, total, expected):
            typealias Keys = ServerEvent.DidWriteBytesCodingKeys
            open(ServerEvent.CodingKeys.didWriteBytes)
            key(Keys.bytesWritten)
            append(written)
            append(",")
            key(Keys.download)
            write(download)
            append(",")
            key(Keys.totalBytesExpectedToWrite)
            append(expected)
            append(",")
            key(Keys.totalBytesWritten)
            append(total)
        case let .finished(deliveryID, download, filePath):
            typealias Keys = ServerEvent.FinishedCodingKeys
            open(ServerEvent.CodingKeys.finished)
            key(Keys.deliveryID)
            append(deliveryID)
            append(",")
            key(Keys.download)
            write(download)
            append(",")
            key(Keys.filePath)
            write(filePath)
        case let .extensionCall(callID, call):
            typealias Keys = ServerEvent.ExtensionCallCodingKeys
            open(ServerEvent.CodingKeys.extensionCall)
            key(Keys.call)
            guard write(call) else { return false }
            append(",")
            key(Keys.callID)
            append(callID)
        default:
            return false
        }
        append("}}")
        return true
    }

    /// Writes the answers sent for every download; `false` for any other.
    private mutating func write(_ response: ServerResponse) -> Bool {
        switch response {
        case .done:
            open(ServerResponse.CodingKeys.done)
        case let .download(download):
            open(ServerResponse.CodingKeys.download)
            key(ServerResponse.DownloadCodingKeys._0)
            write(download)
        default:
            return false
        }
        append("}}")
        return true
    }
}
