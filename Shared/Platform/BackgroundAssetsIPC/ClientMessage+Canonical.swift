/*
Abstract:
Reads the requests made for every download, and the extension's answers of downloads and returns of notices, straight from parsed JSON, when they have their usual shape.
*/

/// The requests a client makes once or twice for every download (scheduling one, starting it in
/// the foreground, acknowledging its file), the extension's answers that carry thousands of
/// downloads at once and its returns of failed-download notices, read field by field, as the
/// answers and events are on the client's side (ServerMessage+Canonical.swift): only the shape
/// clients write, anything else through the Codable path. `ClientMessageCanonicalTests` checks both
/// paths agree.
extension ClientMessage {
    init?(canonical value: WireJSONValue) {
        guard let fields = value.fields([CodingKeys.id.rawValue, CodingKeys.request.rawValue]),
              let id: UInt64 = fields[0].integerValue(),
              let family = fields[1].onlyMember else { return nil }
        switch ClientRequest.CodingKeys(rawValue: family.key) {
        case .downloads:
            guard let request = ClientRequest.Downloads(canonical: family.value) else { return nil }
            self.init(id: id, request: .downloads(request))
        case .core:
            guard let request = ClientRequest.Core(canonical: family.value) else { return nil }
            self.init(id: id, request: .core(request))
        default:
            return nil
        }
    }
}

extension ClientRequest.Downloads {
    init?(canonical value: WireJSONValue) {
        guard let member = value.onlyMember else { return nil }
        switch CodingKeys(rawValue: member.key) {
        case .schedule:
            guard let download = member.value.download(onlyMember: ScheduleCodingKeys.download) else { return nil }
            self = .schedule(download: download)
        case .startForeground:
            guard let download = member.value.download(onlyMember: StartForegroundCodingKeys.download) else { return nil }
            self = .startForeground(download: download)
        case .acknowledgeDelivery:
            guard let fields = member.value.fields([AcknowledgeDeliveryCodingKeys.deliveryID.rawValue]),
                  let deliveryID: UInt64 = fields[0].integerValue() else { return nil }
            self = .acknowledgeDelivery(deliveryID: deliveryID)
        default:
            return nil
        }
    }
}

extension ClientRequest.Core {
    /// The extension's answers of downloads, and the returns of the notices it is sent for every
    /// download an install refuses: the rest are a few bytes each, and rare.
    init?(canonical value: WireJSONValue) {
        guard let member = value.onlyMember else { return nil }
        switch CodingKeys(rawValue: member.key) {
        case .extensionCallReturnedPart:
            typealias Keys = ExtensionCallReturnedPartCodingKeys
            guard let fields = member.value.fields([Keys.callID.rawValue, Keys.downloads.rawValue]),
                  let callID: UInt64 = fields[0].integerValue(), let downloads = fields[1].downloads else { return nil }
            self = .extensionCallReturnedPart(callID: callID, downloads: downloads)
        case .extensionCallReturned:
            typealias Keys = ExtensionCallReturnedCodingKeys
            guard let fields = member.value.fields([Keys.callID.rawValue, Keys.result.rawValue]),
                  let callID: UInt64 = fields[0].integerValue(),
                  let result = fields[1].onlyMember else { return nil }
            switch ExtensionCallResult.CodingKeys(rawValue: result.key) {
            case .downloads:
                guard let list = result.value.fields([ExtensionCallResult.DownloadsCodingKeys._0.rawValue]),
                      let downloads = list[0].downloads else { return nil }
                self = .extensionCallReturned(callID: callID, result: .downloads(downloads))
            case .done:
                // The return of every failed-download notice.
                guard result.value.isEmptyObject else { return nil }
                self = .extensionCallReturned(callID: callID, result: .done)
            default:
                return nil
            }
        default:
            return nil
        }
    }
}

extension WireJSONValue {
    /// An array of downloads, or `nil` when it is not one or any element has another shape.
    var downloads: [DownloadDescriptor]? {
        guard case let .array(elements) = self else { return nil }
        var downloads: [DownloadDescriptor] = []
        downloads.reserveCapacity(elements.count)
        for element in elements {
            guard let download = DownloadDescriptor(canonical: element) else { return nil }
            downloads.append(download)
        }
        return downloads
    }
}

extension ClientMessage {
    /// Whether this message is written field by field rather than through the Codable containers, for tests.
    package var isWrittenFieldByField: Bool {
        WireJSONWriter.fieldByField(self) != nil
    }

    /// Whether `payload` is read field by field rather than through the Codable containers, for tests.
    package static func isReadFieldByField(_ payload: some Collection<UInt8>) -> Bool {
        guard let value = try? WireJSONParser.parse(payload) else { return false }
        return ClientMessage(canonical: value) != nil
    }
}
