/*
Abstract:
Tests for bundle versions: what parses, how versions order, and when an install is an update.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Bundle version")
struct BundleVersionTests {
    @Test(
        "One to three dot-separated integers parse; anything else does not",
        arguments: [
            ("1", true), ("1.0", true), ("2.3.1", true), ("0", true), ("123456789", true),
            ("", false), ("1.", false), (".1", false), ("1..2", false), ("1.2.3.4", false), ("-1", false),
            ("+1", false),
            ("1a", false), (" 1", false), ("1234567890", false), ("١", false), ("1.0-beta", false),
        ])
    func parsing(_ text: String, _ valid: Bool) {
        #expect((BundleVersion(text) != nil) == valid)
    }

    @Test("Versions order numerically, component by component, missing components as zero")
    func ordering() throws {
        func version(_ text: String) throws -> BundleVersion { try #require(BundleVersion(text)) }
        #expect(try version("1.10") > version("1.9"))
        #expect(try version("2") > version("1.99.99"))
        #expect(try version("1") == version("1.0.0"))
        #expect(try version("1.0.1") > version("1"))
        #expect(try Set([version("1"), version("1.0")]).count == 1)
    }

    @Test("Installing a higher CFBundleVersion is an update; the same or a lower one is not")
    func updateDetection() throws {
        let app = try AppRegistryTests.sampleApp()
        var bundle = app.bundle
        for (version, isUpdate) in [("2", true), ("1.0.1", true), ("1", false), ("1.0", false), ("0.9", false)] {
            bundle.app.version = version
            #expect(app.isUpdate(to: bundle) == isUpdate, "\(version)")
        }
    }
}
