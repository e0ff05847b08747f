/*
Abstract:
Writes the requests made for every download as the protocol's JSON directly, without building a tree first.
*/

/// The requests a client makes once or twice for every download, field by field in sorted key
/// order: the bytes the Codable path writes, which `ClientMessageCanonicalTests` compares with
/// hostile text in every string.
extension WireJSONWriter {
    /// The JSON of `message` when it is one of the requests made for every download, or `nil` for
    /// any other, which the Codable path writes.
    static func fieldByField(_ message: ClientMessage) -> [UInt8]? {
        guard case let .downloads(request) = message.request else { return nil }
        var writer = WireJSONWriter()
        writer.append("{")
        writer.key(ClientMessage.CodingKeys.id)
        writer.append(message.id)
        writer.append(",")
        writer.key(ClientMessage.CodingKeys.request)
        writer.open(ClientRequest.CodingKeys.downloads)
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
