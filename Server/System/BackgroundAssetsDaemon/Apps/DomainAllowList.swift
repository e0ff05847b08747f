/*
Abstract:
BADownloadDomainAllowList: the hosts an app may download from before its first launch, with *. prefix wildcards.
*/

/// The hosts an app's extension may download from before the app's first launch.
///
/// Each entry is a host name (`cdn.example.com`), an IP address (`127.0.0.1`), or a wildcard
/// `*.example.com` that matches every subdomain of `example.com` at any depth (`a.example.com`,
/// `a.b.example.com`). Matching ignores case and one trailing dot (`CDN.Example.com.` is `cdn.example.com`).
///
/// - Note: Apple documents the key as "the permitted list of domains" without spelling out the
///   wildcard's reach. Here `*.example.com` does **not** match `example.com` itself, the way TLS and
///   most allow lists read it; list both entries to allow both.
public struct DomainAllowList: Sendable, Equatable, Codable {
    /// The entries as written in the Info.plist.
    public let entries: [String]

    /// The normalized exact hosts, and the normalized parents of the wildcard entries.
    private let exactHosts: Set<String>
    private let wildcardParents: [String]

    /// Creates an allow list, checking that every entry is a host name or a `*.` wildcard.
    /// - Parameter entries: The entries, for example `["127.0.0.1", "*.example.com"]`.
    /// - Throws: ``DomainAllowList/InvalidEntry`` with the first entry that is neither.
    public init(_ entries: [String]) throws {
        var exact = Set<String>()
        var parents: [String] = []
        for (index, entry) in entries.enumerated() {
            let host = Self.normalize(entry)
            if host.hasPrefix("*.") {
                let parent = String(host.dropFirst(2))
                // A wildcard must name a parent with a dot, so `*.com` cannot allow a whole top-level domain.
                guard Self.isHostName(parent), parent.contains(".") else {
                    throw InvalidEntry(index: index, entry: entry)
                }
                parents.append(parent)
            } else {
                guard Self.isHostName(host) else { throw InvalidEntry(index: index, entry: entry) }
                exact.insert(host)
            }
        }
        self.entries = entries
        exactHosts = exact
        wildcardParents = parents
    }

    /// Whether the list allows a host.
    /// - Parameter host: A URL's host, such as `url.host()`; IPv6 literals may keep their brackets.
    /// - Returns: `true` when an exact entry or a wildcard's subdomain matches.
    public func allows(host: String) -> Bool {
        var normalized = Self.normalize(host)
        if normalized.hasPrefix("["), normalized.hasSuffix("]") {
            normalized = String(normalized.dropFirst().dropLast())
        }
        guard !normalized.isEmpty else { return false }
        if exactHosts.contains(normalized) { return true }
        return wildcardParents.contains { normalized.hasSuffix("." + $0) }
    }

    /// An entry that is neither a host name nor a `*.` prefix wildcard.
    public struct InvalidEntry: Error, Sendable, Equatable {
        /// The entry's position in the list.
        public var index: Int
        /// The entry as written.
        public var entry: String
    }

    /// Lowercases and drops one trailing dot, the forms under which one host can be written.
    static func normalize(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }

    /// Whether a normalized string is a plausible host: letters, digits, `-`, `.`, `:` (IPv6), no empty label.
    static func isHostName(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        let allowed = host.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "0"..."9", "-", ".", ":", "_": true
            default: false
            }
        }
        guard allowed else { return false }
        if host.contains(":") {
            // An IPv6 literal: hex digits and at least two colons (dots for an embedded IPv4), not a host:port.
            return host.filter { $0 == ":" }.count >= 2
                && host.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }
        }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
        }
    }

    // MARK: Codable

    /// Decodes the entries and validates them again, so a tampered record cannot smuggle a bad entry.
    public init(from decoder: any Decoder) throws {
        let entries = try decoder.singleValueContainer().decode([String].self)
        do {
            try self.init(entries)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(PropertyListText.list(entries)) is not a valid domain allow list")
            )
        }
    }

    /// Encodes the entries as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}
