/*
Abstract:
A binary Info.plist holding a set, which crashed Foundation on Linux and the service with it, is refused by name.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Binary Info.plist with a set")
struct BinaryInfoPlistSetTests {
    @Test("A binary Info.plist holding a set is refused in words, not a crash of the service")
    func binaryPlistWithSet() throws {
        let app = #expect(throws: AppBundleError.self) {
            try AppInfoPlist(data: HostilePropertyLists.dictionaryWithSet, file: "App/Info.plist")
        }
        #expect(app?.description.hasPrefix("App/Info.plist: ") == true)
        #expect(app?.description.contains("holds a set") == true, "\(String(describing: app))")
        #expect(throws: AppBundleError.self) {
            try ExtensionInfoPlist(data: HostilePropertyLists.dictionaryWithSet, file: "Extension/Info.plist")
        }
    }

    @Test("The sample's Info.plist as a binary property list still reads")
    func binarySamplePlist() throws {
        let xml = try Data(contentsOf: SampleBundle.appPlistURL)
        let binary = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: xml, format: nil), format: .binary, options: 0)
        #expect(try AppInfoPlist(data: binary, file: "App/Info.plist") == AppInfoPlist(data: xml, file: "App/Info.plist"))
    }
}
