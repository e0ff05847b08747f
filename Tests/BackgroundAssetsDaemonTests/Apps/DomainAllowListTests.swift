/*
Abstract:
Tests for BADownloadDomainAllowList matching: exact hosts, *. wildcards, case, trailing dots, and bad entries.
*/

@testable import BackgroundAssetsDaemon
import Testing

@Suite("Domain allow list")
struct DomainAllowListTests {
    static let list = try! DomainAllowList([
        "cdn.example.com", "*.assets.example.net", "127.0.0.1", "::1", "Localhost.",
    ])

    static let matches: [(host: String, allowed: Bool)] = [
        ("cdn.example.com", true),
        ("CDN.Example.COM", true),
        ("cdn.example.com.", true),
        ("example.com", false),
        ("www.cdn.example.com", false),
        ("cdn.example.com.evil.org", false),
        ("evilcdn.example.com", false),
        ("eu.assets.example.net", true),
        ("a.b.assets.example.net", true),
        ("EU.ASSETS.EXAMPLE.NET.", true),
        ("assets.example.net", false),
        ("xassets.example.net", false),
        ("assets.example.net.evil.org", false),
        ("127.0.0.1", true),
        ("127.0.0.2", false),
        ("::1", true),
        ("[::1]", true),
        ("localhost", true),
        ("", false),
        (".", false),
    ]

    @Test("Hosts match exactly or as subdomains of a *. entry, ignoring case and a trailing dot", arguments: matches)
    func matching(_ host: String, _ allowed: Bool) {
        #expect(Self.list.allows(host: host) == allowed)
    }

    @Test("A *. wildcard does not match the bare domain; list both to allow both")
    func wildcardExcludesApex() throws {
        let wildcard = try DomainAllowList(["*.example.com"])
        #expect(!wildcard.allows(host: "example.com"))
        #expect(wildcard.allows(host: "cdn.example.com"))
        let both = try DomainAllowList(["*.example.com", "example.com"])
        #expect(both.allows(host: "example.com"))
    }

    static let invalid: [String] = [
        "", "*", "*.", "*.com", "**.example.com", "cdn.*.example.com", "https://cdn.example.com",
        "cdn.example.com/path", "cdn example.com", "cdn..example.com", "-cdn.example.com", "cdn.example.com:8080",
        "::g",
        String(repeating: "a", count: 64) + ".example.com", "ünicode.example.com",
    ]

    @Test("Entries that are not host names or *. wildcards are refused with their position", arguments: invalid)
    func refusesBadEntry(_ entry: String) {
        #expect(throws: DomainAllowList.InvalidEntry(index: 1, entry: entry)) {
            try DomainAllowList(["ok.example.com", entry])
        }
    }
}
