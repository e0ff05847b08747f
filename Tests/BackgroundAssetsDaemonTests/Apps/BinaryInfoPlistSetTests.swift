/*
Abstract:
A binary Info.plist holding a set, which crashed Foundation on Linux and the service with it, is refused by name.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Binary Info.plist with a set")
struct BinaryInfoPlistSetTests {
    /// `{"a": {"b"}}` as a binary property list; `Tests/Fuzz` found that Foundation on Linux crashes
    /// with SIGSEGV reading any set in a binary plist (`info-plist` and `resume-data` targets).
    static let dictionaryWithSet = Data([
        0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30,  // bplist00
        0xD1, 0x01, 0x02, 0x51, 0x61, 0xC1, 0x03, 0x51, 0x62,  // {1: 2}, "a", set {3}, "b"
        0x08, 0x0B, 0x0D, 0x0F,  // offset table
        0, 0, 0, 0, 0, 0, 1, 1,  // unused, offset size, reference size
        0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11,  // 4 objects, top 0, table at 17
    ])

    @Test("A binary Info.plist holding a set is refused in words, not a crash of the service")
    func binaryPlistWithSet() throws {
        let app = #expect(throws: AppBundleError.self) {
            try AppInfoPlist(data: Self.dictionaryWithSet, file: "App/Info.plist")
        }
        #expect(app?.description.hasPrefix("App/Info.plist: ") == true)
        #expect(app?.description.contains("holds a set") == true, "\(String(describing: app))")
        #expect(throws: AppBundleError.self) {
            try ExtensionInfoPlist(data: Self.dictionaryWithSet, file: "Extension/Info.plist")
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
