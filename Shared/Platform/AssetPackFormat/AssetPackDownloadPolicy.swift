/*
Abstract:
When the system downloads an asset pack: essential, prefetch or on demand, as a pack's manifest says.
*/

/// A pack's download policy, the `downloadPolicy` object of its manifest.
///
/// ```json
/// "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } }
/// "downloadPolicy": { "prefetch": { "installationEventTypes": ["firstInstallation", "subsequentUpdate"] } }
/// "downloadPolicy": { "onDemand": {} }
/// ```
public enum AssetPackDownloadPolicy: Sendable, Hashable {
    /// Downloaded as part of the install: the app cannot launch until the pack is on the device.
    case essential(installationEventTypes: Set<InstallationEventType>)
    /// Downloaded right after the install, in the background; the app may launch meanwhile.
    case prefetch(installationEventTypes: Set<InstallationEventType>)
    /// Downloaded only when the app asks for it.
    case onDemand

    /// The installation events an essential or prefetch policy applies to.
    public enum InstallationEventType: String, Sendable, Hashable, CaseIterable, Comparable {
        /// A person installs the app for the first time.
        case firstInstallation
        /// A person updates the app.
        case subsequentUpdate

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The policy's key in JSON: `essential`, `prefetch` or `onDemand`.
    public var name: String {
        switch self {
        case .essential: "essential"
        case .prefetch: "prefetch"
        case .onDemand: "onDemand"
        }
    }

    /// Whether the system downloads the pack by itself for this installation event.
    public func applies(to event: InstallationEventType) -> Bool {
        switch self {
        case let .essential(events), let .prefetch(events): events.contains(event)
        case .onDemand: false
        }
    }

    /// Whether the pack must be on the device before the app launches.
    public var isEssential: Bool {
        if case .essential = self { return true }
        return false
    }

    /// Reads a `downloadPolicy` object, refusing unknown policies, a second policy, and missing or
    /// unknown installation events, with the field at fault named.
    /// - Parameter object: The `downloadPolicy` member.
    /// - Throws: ``AssetPackFormatError``.
    package init(reading object: JSONFieldReader) throws(AssetPackFormatError) {
        let keys = object.members.keys.sorted()
        guard keys.count == 1, let key = keys.first else {
            throw object.error(nil, keys.isEmpty
                ? "is empty; give it one key: \"essential\", \"prefetch\" or \"onDemand\"."
                : "has \(keys.count) keys (\(keys.joined(separator: ", "))); give it exactly one: "
                    + "\"essential\", \"prefetch\" or \"onDemand\".")
        }
        switch key {
        case "onDemand":
            let policy = try object.object(key)
            guard policy.members.isEmpty else {
                throw policy.error(nil, "must be an empty object ({}): an on-demand pack has no installation events.")
            }
            self = .onDemand
        case "essential":
            self = .essential(installationEventTypes: try Self.events(in: try object.object(key)))
        case "prefetch":
            self = .prefetch(installationEventTypes: try Self.events(in: try object.object(key)))
        default:
            throw object.error(key, "is not a download policy; use \"essential\", \"prefetch\" or \"onDemand\".")
        }
    }

    private static func events(in policy: JSONFieldReader) throws(AssetPackFormatError) -> Set<InstallationEventType> {
        let names = try policy.strings("installationEventTypes")
        guard !names.isEmpty else {
            throw policy.error("installationEventTypes", "is empty; list \"firstInstallation\", "
                + "\"subsequentUpdate\" or both, or use the \"onDemand\" policy.")
        }
        var events: Set<InstallationEventType> = []
        for name in names {
            guard let event = InstallationEventType(rawValue: name.value) else {
                throw AssetPackFormatError(source: policy.source, field: name.path, problem: "\(name.value.debugDescription) "
                    + "is not an installation event type; use \"firstInstallation\" or \"subsequentUpdate\".")
            }
            events.insert(event)
        }
        return events
    }

    /// The policy as its JSON object.
    public var jsonValue: JSONValue {
        switch self {
        case .onDemand:
            return .object(["onDemand": .object([:])])
        case let .essential(events), let .prefetch(events):
            let names = events.sorted().map { JSONValue.string($0.rawValue) }
            return .object([name: .object(["installationEventTypes": .array(names)])])
        }
    }

    /// A short phrase for tables: `essential (firstInstallation)`, `onDemand`.
    public var summary: String {
        switch self {
        case .onDemand: name
        case let .essential(events), let .prefetch(events):
            "\(name) (\(events.sorted().map(\.rawValue).joined(separator: ", ")))"
        }
    }
}
