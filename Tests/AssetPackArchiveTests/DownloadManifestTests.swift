/*
Abstract:
Unit tests of the download manifest and download policies: what is accepted, and what is refused with the field named.
*/

import AssetPackFormat
import Foundation
import Testing

@Suite("The download manifest")
struct DownloadManifestTests {
    private func parse(_ json: String) throws(AssetPackFormatError) -> AssetPackDownloadManifest {
        try AssetPackDownloadManifest(parsing: Data(json.utf8), source: "manifest.json")
    }

    private func packs(_ entries: String...) -> String {
        #"{ "assetPacks": [\#(entries.joined(separator: ","))] }"#
    }

    private func entry(id: String = "Tutorial", version: String = "1", policy: String = #"{ "onDemand": {} }"#,
                       extra: String = "") -> String {
        #"{ "id": "\#(id)", "version": \#(version), "url": "\#(id)", "downloadSize": 100, "downloadPolicy": \#(policy)\#(extra) }"#
    }

    @Test("A manifest with each policy reads back as it was written")
    func roundTrip() throws {
        let manifest = try parse(packs(
            entry(id: "Tutorial", policy: #"{ "essential": { "installationEventTypes": ["firstInstallation"] } }"#),
            entry(id: "Textures", version: "3",
                  policy: #"{ "prefetch": { "installationEventTypes": ["firstInstallation", "subsequentUpdate"] } }"#,
                  extra: #", "sha256": "\#(String(repeating: "ab", count: 32))", "userInfo": { "level": 2 }"#),
            entry(id: "Level-2")))
        #expect(manifest.assetPacks.map(\.id) == ["Tutorial", "Textures", "Level-2"])
        #expect(manifest.assetPacks[0].downloadPolicy == .essential(installationEventTypes: [.firstInstallation]))
        #expect(manifest.assetPacks[1].downloadPolicy.applies(to: .subsequentUpdate))
        #expect(manifest.assetPacks[1].userInfo == .object(["level": .integer(2)]))
        #expect(manifest.assetPacks[2].downloadPolicy == .onDemand)
        let reread = try AssetPackDownloadManifest(parsing: manifest.encoded(), source: "again")
        #expect(reread == manifest)
    }

    @Test("A relative pack URL resolves against the manifest's URL")
    func relativeURL() throws {
        let manifest = try parse(packs(entry()))
        let base = URL(string: "http://127.0.0.1:8080/asset-packs/manifest.json")
        #expect(manifest.assetPacks[0].archiveURL(relativeTo: base)?.absoluteString == "http://127.0.0.1:8080/asset-packs/Tutorial")
        #expect(manifest.assetPacks[0].archiveURL(relativeTo: nil) == nil)
    }

    @Test("Two packs with one identifier are refused, naming both")
    func duplicateIdentifiers() {
        #expect(throws: AssetPackFormatError.self) { try parse(packs(entry(), entry(version: "2"))) }
        do {
            _ = try parse(packs(entry(), entry(version: "2")))
        } catch {
            #expect(error.field == "assetPacks[1].id")
            #expect(error.problem.contains("assetPacks[0]"))
        }
    }

    @Test("An unknown download policy is refused with its field named")
    func unknownPolicy() {
        do {
            _ = try parse(packs(entry(policy: #"{ "always": {} }"#)))
            Issue.record("An unknown policy was accepted.")
        } catch {
            #expect(error.field == "assetPacks[0].downloadPolicy.always")
            #expect(error.problem.contains("\"essential\", \"prefetch\" or \"onDemand\""))
        }
    }

    @Test("Malformed policies are refused: two policies, no events, an unknown event, on demand with events")
    func malformedPolicies() {
        let cases: [(String, String)] = [
            (#"{ "onDemand": {}, "prefetch": { "installationEventTypes": ["firstInstallation"] } }"#, "assetPacks[0].downloadPolicy"),
            (#"{ "essential": {} }"#, "assetPacks[0].downloadPolicy.essential.installationEventTypes"),
            (#"{ "essential": { "installationEventTypes": [] } }"#, "assetPacks[0].downloadPolicy.essential.installationEventTypes"),
            (#"{ "prefetch": { "installationEventTypes": ["firstLaunch"] } }"#,
             "assetPacks[0].downloadPolicy.prefetch.installationEventTypes[0]"),
            (#"{ "onDemand": { "installationEventTypes": ["firstInstallation"] } }"#, "assetPacks[0].downloadPolicy.onDemand"),
            (#"{}"#, "assetPacks[0].downloadPolicy"),
        ]
        for (policy, field) in cases {
            do {
                _ = try parse(packs(entry(policy: policy)))
                Issue.record("The policy \(policy) was accepted.")
            } catch {
                #expect(error.field == field, "for \(policy): \(error)")
            }
        }
    }

    @Test("Bad identifiers, versions, sizes, digests and hosts are refused with their fields named")
    func badFields() {
        let cases: [(String, String)] = [
            (entry(id: "../escape"), "assetPacks[0].id"),
            (entry(id: ".hidden"), "assetPacks[0].id"),
            (entry(version: "-1"), "assetPacks[0].version"),
            (entry(version: "\"2\""), "assetPacks[0].version"),
            (entry(extra: #", "sha256": "xyz""#), "assetPacks[0].sha256"),
            (entry(extra: #", "host": { "apple": {} }"#), "assetPacks[0].host"),
            (#"{ "id": "Tutorial", "version": 1, "url": "Tutorial", "downloadSize": 0, "downloadPolicy": { "onDemand": {} } }"#,
             "assetPacks[0].downloadSize"),
        ]
        for (json, field) in cases {
            do {
                _ = try parse(packs(json))
                Issue.record("\(json) was accepted.")
            } catch {
                #expect(error.field == field, "for \(json): \(error)")
            }
        }
    }

    @Test("Text that is not a JSON object is refused with the file named")
    func notJSON() {
        for text in ["not json", "[1, 2]", #"{ "assetPacks": 3 }"#] {
            do {
                _ = try parse(text)
                Issue.record("\(text) was accepted.")
            } catch {
                #expect(error.source == "manifest.json")
                #expect(error.description.hasPrefix("manifest.json:"))
            }
        }
    }

    @Test("A pack's download identifier carries its identifier and version, and nothing else parses as one")
    func downloadIdentifiers() {
        let identifier = AssetPackDownloadIdentifier(packID: "Slides.WWDC23", version: 12)
        #expect(identifier.description == "asset-pack.Slides.WWDC23.v12")
        #expect(AssetPackDownloadIdentifier(parsing: identifier.description) == identifier)
        for other in ["wwdc23-10108", "asset-pack..v1", "asset-pack.Tutorial", "asset-pack.Tutorial.vX", "asset-pack.a/b.v1"] {
            #expect(AssetPackDownloadIdentifier(parsing: other) == nil, "\(other)")
        }
    }
}
