/*
Abstract:
Tests that the sample's Info.plists validate, in XML and binary form, and what the install learns from them.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import TestSupport
import Testing

@Suite("App bundle description")
struct AppBundleDescriptionTests {
    @Test("The sample's App/Info.plist and Extension/Info.plist validate")
    func sampleValidates() throws {
        let bundle = try SampleBundle.description()
        let app = try SampleBundle.appDictionary(), appExtension = try SampleBundle.extensionDictionary()
        // What the install learns is what the files say, whatever identity a copy of the sample gives itself.
        #expect(bundle.app.bundleIdentifier == app["CFBundleIdentifier"] as? String)
        #expect(bundle.app.executable == app["CFBundleExecutable"] as? String)
        #expect(bundle.app.manifestURL?.absoluteString == app["BAManifestURL"] as? String)
        #expect(bundle.app.manifestURL?.scheme == "http" && bundle.app.manifestURL?.host == "127.0.0.1")
        #expect(bundle.app.restrictions.domainAllowList.allows(host: "127.0.0.1"))
        #expect(bundle.app.restrictions.domainAllowList.allows(host: "localhost"))
        let bundledExtension = try #require(bundle.extension)
        #expect(bundledExtension.bundleIdentifier == appExtension["CFBundleIdentifier"] as? String)
        #expect(bundledExtension.bundleIdentifier.hasPrefix(bundle.app.bundleIdentifier + "."))
        #expect(bundledExtension.executable == appExtension["CFBundleExecutable"] as? String)
        #expect(bundledExtension.executable != bundle.app.executable)
        #expect(bundle.appGroup == app["AppGroupIdentifier"] as? String)
        #expect(bundle.appGroup == appExtension["AppGroupIdentifier"] as? String)
    }

    @Test("The sample's allowances fit the default catalog: 12 sessions of 8 MiB ± 25 %, two essential")
    func sampleAllowancesFitCatalog() throws {
        let app = try SampleBundle.description().app
        let largestSession = 10 << 20  // 8 MiB plus a quarter
        #expect(app.restrictions.downloadAllowance >= 12 * largestSession)
        #expect(app.restrictions.essentialDownloadAllowance >= 2 * largestSession)
        #expect(app.maxInstallSize >= 12 * largestSession)
        #expect(app.essentialMaxInstallSize >= 2 * largestSession)
        // Not absurdly generous either: the allowance is a promise to the person installing.
        #expect(app.restrictions.downloadAllowance <= 2 * 12 * (8 << 20))
    }

    @Test("A binary Info.plist reads the same as its XML form")
    func binaryPlist() throws {
        let binary = try PropertyListSerialization.data(
            fromPropertyList: SampleBundle.appDictionary(), format: .binary, options: 0
        )
        let fromBinary = try AppInfoPlist(data: binary, file: "App/Info.plist")
        let fromXML = try AppInfoPlist(data: Data(contentsOf: SampleBundle.appPlistURL), file: "App/Info.plist")
        #expect(fromBinary == fromXML)
    }

    @Test("The extension may declare its point with NSExtension instead of EXAppExtensionAttributes")
    func legacyExtensionPoint() throws {
        var plist = try SampleBundle.extensionDictionary()
        plist["EXAppExtensionAttributes"] = nil
        plist["NSExtension"] = ["NSExtensionPointIdentifier": ExtensionInfoPlist.extensionPointIdentifier]
        #expect(try SampleBundle.extensionRefusal(plist) == nil)
    }

    @Test("An app bundle description survives a JSON round trip, the allow list validated again")
    func codableRoundTrip() throws {
        let bundle = try SampleBundle.description()
        let decoded = try JSONDecoder().decode(AppBundleDescription.self, from: JSONEncoder().encode(bundle))
        #expect(decoded == bundle)
        let tampered = try #require(String(data: JSONEncoder().encode(bundle), encoding: .utf8))
            .replacingOccurrences(of: "\"localhost\"", with: "\"local host\"")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AppBundleDescription.self, from: Data(tampered.utf8))
        }
    }

    @Test("Missing, unreadable and oversized files are refused by name")
    func fileRefusals() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.appending("Missing.plist")
        let huge = folder.appending("Huge.plist")
        try Data(count: PropertyListReader.maximumFileSize + 1).write(to: huge)
        for appURL in [missing, folder.url, huge] {
            do {
                _ = try AppBundleDescription(appPlistAt: appURL, extensionPlistAt: SampleBundle.extensionPlistURL)
                Issue.record("\(appURL.path) was accepted")
            } catch let error as AppBundleError {
                #expect(error.file == appURL.relativePath)
                #expect(error.key == nil)
                #expect(error.description.contains(appURL.relativePath))
            }
        }
    }
}
