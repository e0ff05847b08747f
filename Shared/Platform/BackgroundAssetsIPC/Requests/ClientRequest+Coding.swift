/*
Abstract:
How a request is written on the wire: its family's name, then the request itself, with `hello` as every version wrote it.
*/

// Written by hand rather than synthesized: the synthesized coding would put each family's request
// under a payload key of its own (`{"downloads":{"request":{"schedule":…}}}`); this writes the
// request as the family's value (`{"downloads":{"schedule":…}}`), and keeps `hello`'s version-2 shape.
extension ClientRequest: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let family = container.allKeys.first else {
            let names = CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.typeMismatch(ClientRequest.self, .init(
                codingPath: container.codingPath,
                debugDescription: "A request has exactly one of the keys \(names) (protocol version \(WireProtocol.version))."))
        }
        switch family {
        case .hello:
            let payload = try container.nestedContainer(keyedBy: HelloCodingKeys.self, forKey: .hello)
            self = .hello(try payload.decode(Hello.self, forKey: ._0))
        case .core: self = .core(try container.decode(Core.self, forKey: .core))
        case .downloads: self = .downloads(try container.decode(Downloads.self, forKey: .downloads))
        case .assetPacks: self = .assetPacks(try container.decode(AssetPacks.self, forKey: .assetPacks))
        case .tasks: self = .tasks(try container.decode(Tasks.self, forKey: .tasks))
        case .urlSessions: self = .urlSessions(try container.decode(URLSessions.self, forKey: .urlSessions))
        case .notifications: self = .notifications(try container.decode(Notifications.self, forKey: .notifications))
        case .tool: self = .tool(try container.decode(Tool.self, forKey: .tool))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .hello(hello):
            var payload = container.nestedContainer(keyedBy: HelloCodingKeys.self, forKey: .hello)
            try payload.encode(hello, forKey: ._0)
        case let .core(request): try container.encode(request, forKey: .core)
        case let .downloads(request): try container.encode(request, forKey: .downloads)
        case let .assetPacks(request): try container.encode(request, forKey: .assetPacks)
        case let .tasks(request): try container.encode(request, forKey: .tasks)
        case let .urlSessions(request): try container.encode(request, forKey: .urlSessions)
        case let .notifications(request): try container.encode(request, forKey: .notifications)
        case let .tool(request): try container.encode(request, forKey: .tool)
        }
    }
}

extension ClientRequest {
    /// Every request's name on the wire, its family's and its own (`downloads.schedule`; `hello`
    /// alone), in the order of the table in ``WireProtocol``.
    public static let wireNames: [String] = [CodingKeys.hello.rawValue]
        + Core.CodingKeys.allCases.map { "\(CodingKeys.core.rawValue).\($0.rawValue)" }
        + Downloads.CodingKeys.allCases.map { "\(CodingKeys.downloads.rawValue).\($0.rawValue)" }
        + AssetPacks.CodingKeys.allCases.map { "\(CodingKeys.assetPacks.rawValue).\($0.rawValue)" }
        + Tasks.CodingKeys.allCases.map { "\(CodingKeys.tasks.rawValue).\($0.rawValue)" }
        + URLSessions.CodingKeys.allCases.map { "\(CodingKeys.urlSessions.rawValue).\($0.rawValue)" }
        + Notifications.CodingKeys.allCases.map { "\(CodingKeys.notifications.rawValue).\($0.rawValue)" }
        + Tool.CodingKeys.allCases.map { "\(CodingKeys.tool.rawValue).\($0.rawValue)" }
}
