/*
Abstract:
Writes the requests made for every download, and the extension's answers of downloads, as the protocol's JSON directly, without building a tree first.
*/

/// The requests a client makes once or twice for every download, and the extension's answers that
/// carry downloads by the thousand, field by field in sorted key order: the bytes the Codable path
/// writes, which `ClientMessageCanonicalTests` compares with hostile text in every string.
extension WireJSONWriter {
    /// The JSON of `message` when it is one of the requests made for every download or an
    /// extension's answer of downloads, or `nil` for any other, which the Codable path writes.
    static func fieldByField(_ message: ClientMessage) -> [UInt8]? {
        switch message.request {
        case let .downloads(request): fieldByField(request, id: message.id)
        case let .core(request): fieldByField(request, id: message.id)
        default: nil
        }
    }

    /// `{"id":ID,"request":{"FAMILY":`, the start every request of a family shares.
    private mutating func openRequest(id: UInt64, family: ClientRequest.CodingKeys) {
        append("{")
        key(ClientMessage.CodingKeys.id)
        append(id)
        append(",")
        key(ClientMessage.CodingKeys.request)
        open(family)
    }

    /// The extension's answers of downloads, which carry up to a thousand at a time, and the returns
    /// of calls that answer nothing, one for every failed-download notice.
    private static func fieldByField(_ request: ClientRequest.Core, id: UInt64) -> [UInt8]? {
        typealias Core = ClientRequest.Core
        var writer = WireJSONWriter()
        writer.openRequest(id: id, family: .core)
        switch request {
        case let .extensionCallReturnedPart(callID, downloads):
            writer.member(Core.CodingKeys.extensionCallReturnedPart, Core.ExtensionCallReturnedPartCodingKeys.callID)
            writer.append(callID)
            writer.append(",")
            writer.key(Core.ExtensionCallReturnedPartCodingKeys.downloads)
            writer.write(downloads)
            writer.append("}}}}")
        case let .extensionCallReturned(callID, result):
            writer.member(Core.CodingKeys.extensionCallReturned, Core.ExtensionCallReturnedCodingKeys.callID)
            writer.append(callID)
            writer.append(",")
            writer.key(Core.ExtensionCallReturnedCodingKeys.result)
            switch result {
            case let .downloads(downloads):
                writer.open(ExtensionCallResult.CodingKeys.downloads)
                writer.key(ExtensionCallResult.DownloadsCodingKeys._0)
                writer.write(downloads)
            case .done:
                writer.open(ExtensionCallResult.CodingKeys.done)
            default:
                return nil
            }
            writer.append("}}}}}}")
        default:
            return nil
        }
        return writer.bytes
    }

    private static func fieldByField(_ request: ClientRequest.Downloads, id: UInt64) -> [UInt8]? {
        var writer = WireJSONWriter()
        writer.openRequest(id: id, family: .downloads)
        typealias Downloads = ClientRequest.Downloads
        switch request {
        case let .schedule(download):
            writer.member(Downloads.CodingKeys.schedule, Downloads.ScheduleCodingKeys.download)
            writer.write(download)
        case let .startForeground(download):
            writer.member(Downloads.CodingKeys.startForeground, Downloads.StartForegroundCodingKeys.download)
            writer.write(download)
        case let .acknowledgeDelivery(deliveryID):
            writer.member(Downloads.CodingKeys.acknowledgeDelivery, Downloads.AcknowledgeDeliveryCodingKeys.deliveryID)
            writer.append(deliveryID)
        default:
            return nil
        }
        writer.append("}}}}")
        return writer.bytes
    }

    /// Writes a request's name and its one field's key: `"request":{"field":`.
    private mutating func member(_ request: some CodingKey, _ field: some CodingKey) {
        key(request)
        append("{")
        key(field)
    }
}
