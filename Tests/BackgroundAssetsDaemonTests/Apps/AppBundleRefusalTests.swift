/*
Abstract:
Tests that every bad Background Assets key is refused with a sentence naming the file, the key and the value.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("App bundle refusals")
struct AppBundleRefusalTests {
    /// One edit of the sample's app Info.plist and the key the refusal must name.
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        // Unchecked: `value` holds immutable property list values (strings, numbers, arrays,
        // dictionaries) built from literals, which are never mutated after the case is created.
        var path: [String]
        var value: Any?
        var key: String

        var testDescription: String { "\(path.joined(separator: ".")) = \(value.map { "\($0)" } ?? "missing")" }
    }

    static let restrictions = "BAInitialDownloadRestrictions"
    static let allowance = [restrictions, "BADownloadAllowance"]
    static let essential = [restrictions, "BAEssentialDownloadAllowance"]
    static let domains = [restrictions, "BADownloadDomainAllowList"]
    static let groups = "com.apple.security.application-groups"

    static let appCases: [Case] = [
        Case(path: ["CFBundleIdentifier"], value: nil, key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: "com.example/../../etc", key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: "..", key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: "com..example", key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: "com.example.App_1", key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: String(repeating: "a.", count: 200) + "b", key: "CFBundleIdentifier"),
        Case(path: ["CFBundleIdentifier"], value: 42, key: "CFBundleIdentifier"),
        Case(path: ["CFBundleExecutable"], value: "../bin/sh", key: "CFBundleExecutable"),
        Case(path: ["CFBundleExecutable"], value: "", key: "CFBundleExecutable"),
        Case(path: ["CFBundleExecutable"], value: nil, key: "CFBundleExecutable"),
        Case(path: ["CFBundleShortVersionString"], value: "one", key: "CFBundleShortVersionString"),
        Case(path: ["CFBundleVersion"], value: "1.0.0.0", key: "CFBundleVersion"),
        Case(path: ["CFBundleVersion"], value: "-1", key: "CFBundleVersion"),
        Case(path: ["BAManifestURL"], value: nil, key: "BAManifestURL"),
        Case(path: ["BAManifestURL"], value: "ftp://127.0.0.1/manifest.json", key: "BAManifestURL"),
        Case(path: ["BAManifestURL"], value: "http://cdn.example.com/manifest.json", key: "BAManifestURL"),
        Case(path: ["BAManifestURL"], value: "manifest.json", key: "BAManifestURL"),
        Case(path: ["BAManifestURL"], value: true, key: "BAManifestURL"),
        Case(
            path: ["BAManifestURL"], value: "https://cdn.example.com/manifest.json", key: domains.joined(separator: ".")
        ),
        Case(path: [restrictions], value: nil, key: restrictions),
        Case(path: [restrictions], value: "everything", key: restrictions),
        Case(path: allowance, value: nil, key: allowance.joined(separator: ".")),
        Case(path: allowance, value: -5, key: allowance.joined(separator: ".")),
        Case(path: allowance, value: "100", key: allowance.joined(separator: ".")),
        Case(path: allowance, value: true, key: allowance.joined(separator: ".")),
        Case(path: allowance, value: 1.5, key: allowance.joined(separator: ".")),
        Case(path: allowance, value: Int.max, key: allowance.joined(separator: ".")),
        Case(path: allowance, value: (1 << 40) + 1, key: allowance.joined(separator: ".")),
        Case(path: essential, value: nil, key: essential.joined(separator: ".")),
        Case(path: essential, value: -1, key: essential.joined(separator: ".")),
        Case(path: essential, value: Int.max, key: essential.joined(separator: ".")),
        Case(path: domains, value: nil, key: domains.joined(separator: ".")),
        Case(path: domains, value: [String](), key: domains.joined(separator: ".")),
        Case(path: domains, value: "127.0.0.1", key: domains.joined(separator: ".")),
        Case(path: domains, value: ["127.0.0.1", 7], key: domains.joined(separator: ".") + "[1]"),
        Case(path: domains, value: ["*.com"], key: domains.joined(separator: ".") + "[0]"),
        Case(path: domains, value: ["https://127.0.0.1/"], key: domains.joined(separator: ".") + "[0]"),
        Case(path: domains, value: ["localhost"], key: domains.joined(separator: ".")),
        Case(path: ["BAMaxInstallSize"], value: nil, key: "BAMaxInstallSize"),
        Case(path: ["BAMaxInstallSize"], value: Int.max, key: "BAMaxInstallSize"),
        Case(path: ["BAEssentialMaxInstallSize"], value: -1, key: "BAEssentialMaxInstallSize"),
        Case(path: ["BAEssentialMaxInstallSize"], value: Int.max, key: "BAEssentialMaxInstallSize"),
        Case(path: [groups], value: nil, key: groups),
        Case(path: [groups], value: [String](), key: groups),
        Case(path: [groups], value: ["com.example.MyApp"], key: groups + "[0]"),
        Case(path: [groups], value: ["group./etc"], key: groups + "[0]"),
        Case(path: ["AppGroupIdentifier"], value: "group.com.example.other", key: "AppGroupIdentifier"),
        Case(path: ["AppGroupIdentifier"], value: 7, key: "AppGroupIdentifier"),
    ]

    @Test("Each bad key of the app's Info.plist is refused with its name and value", arguments: appCases)
    func appRefusal(_ testCase: Case) throws {
        let plist = SampleBundle.setting(try SampleBundle.appDictionary(), testCase.path, to: testCase.value)
        let error = try #require(try SampleBundle.appRefusal(plist))
        #expect(error.file == "App/Info.plist")
        #expect(error.key == testCase.key)
        #expect(error.description.hasPrefix("App/Info.plist: "))
        #expect(error.description.contains(testCase.key))
        if let value = error.value { #expect(error.description.contains(value)) }
        #expect(!error.remedy.isEmpty)
    }

    @Test("Allowances as large as Int.max are refused at install with the largest size allowed")
    func hugeAllowances() throws {
        var plist = SampleBundle.setting(try SampleBundle.appDictionary(), Self.allowance, to: Int.max)
        plist = SampleBundle.setting(plist, Self.essential, to: Int.max)
        let error = try #require(try SampleBundle.appRefusal(plist))
        #expect(error.key == Self.allowance.joined(separator: "."))
        #expect(error.description.contains(String(Int.max)))
        #expect(error.description.contains("from 0 to \(1 << 40)"))
    }

    static let extensionCases: [Case] = [
        Case(
            path: ["CFBundleIdentifier"], value: "com.example.Other.BackgroundDownloadHandler",
            key: "CFBundleIdentifier"),
        Case(
            path: ["CFBundleIdentifier"], value: "com.example.apple-samplecode.WWDC-Sessions", key: "CFBundleIdentifier"
        ),
        Case(
            path: ["CFBundleIdentifier"], value: "com.example.apple-samplecode.WWDC-SessionsX",
            key: "CFBundleIdentifier"),
        Case(path: ["CFBundleExecutable"], value: "/usr/bin/env", key: "CFBundleExecutable"),
        Case(path: ["CFBundleVersion"], value: "2", key: "CFBundleVersion"),
        Case(path: ["EXAppExtensionAttributes"], value: nil, key: "EXAppExtensionAttributes"),
        Case(
            path: ["EXAppExtensionAttributes", "EXExtensionPointIdentifier"], value: "com.apple.widgetkit-extension",
            key: "EXAppExtensionAttributes.EXExtensionPointIdentifier"
        ),
        Case(path: [groups], value: ["group.com.example.other"], key: groups),
        Case(path: [groups], value: "group.com.example.apple-samplecode.WWDC-Sessions", key: groups),
        Case(path: ["AppGroupIdentifier"], value: "group.com.example.other", key: "AppGroupIdentifier"),
    ]

    @Test("Each bad key of the extension's Info.plist is refused with its name", arguments: extensionCases)
    func extensionRefusal(_ testCase: Case) throws {
        let plist = SampleBundle.setting(try SampleBundle.extensionDictionary(), testCase.path, to: testCase.value)
        let error = try #require(try SampleBundle.extensionRefusal(plist))
        #expect(error.file == "Extension/Info.plist")
        #expect(error.key == testCase.key)
        #expect(error.description.contains("Extension/Info.plist"))
        #expect(error.description.contains(testCase.key))
    }

    @Test("Bytes that are not a property list, or not a dictionary, are refused without a key")
    func notAPlist() throws {
        let inputs: [Data] = [
            Data([0, 1, 2, 0xFF, 0xFE]),
            Data("{\"CFBundleIdentifier\": ".utf8),
            try SampleBundle.xml(["a": 1]).prefix(40),
            try PropertyListSerialization.data(fromPropertyList: ["not", "a", "dictionary"], format: .xml, options: 0),
            Data(),
            // Nesting deep enough to exhaust a recursive parser's stack is refused, not followed.
            Data(
                ("<plist><dict><key>a</key>" + String(repeating: "<array>", count: 20_000)
                    + String(repeating: "</array>", count: 20_000) + "</dict></plist>").utf8),
        ]
        for data in inputs {
            #expect(throws: AppBundleError.self, "\(data.count) bytes") {
                try AppInfoPlist(data: data, file: "App/Info.plist")
            }
            do {
                _ = try AppInfoPlist(data: data, file: "App/Info.plist")
            } catch let error as AppBundleError {
                #expect(error.key == nil)
                #expect(error.description.hasPrefix("App/Info.plist: "))
            }
        }
    }

    @Test("A zero allowance or install size is refused by name")
    func zeroSizes() throws {
        // Written as XML text: a 0 in a Swift dictionary may be serialized as <false/>.
        let xml = try String(contentsOf: SampleBundle.appPlistURL, encoding: .utf8)
        for (key, size) in [("BADownloadAllowance", 134_217_728), ("BAMaxInstallSize", 134_217_728)] {
            let marker = "<key>\(key)</key>"
            let edited = xml.replacingOccurrences(
                of: "\(marker)\n\t\t<integer>\(size)</integer>", with: "\(marker)<integer>0</integer>"
            ).replacingOccurrences(of: "\(marker)\n\t<integer>\(size)</integer>", with: "\(marker)<integer>0</integer>")
            #expect(edited != xml, "the sample no longer has \(key) = \(size)")
            do {
                _ = try AppInfoPlist(data: Data(edited.utf8), file: "App/Info.plist")
                Issue.record("\(key) = 0 was accepted")
            } catch let error as AppBundleError {
                #expect(error.key?.hasSuffix(key) == true)
                #expect(error.value == "0")
            }
        }
    }

    @Test("An integer too large for 64 bits is refused, not wrapped")
    func integerOverflow() throws {
        let xml = try #require(String(data: SampleBundle.xml(SampleBundle.appDictionary()), encoding: .utf8))
            .replacingOccurrences(
                of: "<integer>134217728</integer>", with: "<integer>99999999999999999999999</integer>")
        #expect(throws: AppBundleError.self) { try AppInfoPlist(data: Data(xml.utf8), file: "App/Info.plist") }
    }

    @Test("A hostile value is quoted short, so it cannot flood the log")
    func longValuesAreCut() throws {
        // A host of 2,000 bytes parses, and is not on the allow list; one of 10,000 does not parse.
        for length in [2_000, 10_000] {
            let long = "https://" + String(repeating: "x", count: length)
            let plist = SampleBundle.setting(try SampleBundle.appDictionary(), ["BAManifestURL"], to: long)
            let error = try #require(try SampleBundle.appRefusal(plist))
            #expect(error.description.count < 600, "a host of \(length) bytes")
        }
        let hosts = (0..<10_000).map { "host\($0).example.com" }
        let list = SampleBundle.setting(try SampleBundle.appDictionary(), Self.domains, to: hosts)
        let listError = try #require(try SampleBundle.appRefusal(list))
        #expect(listError.description.contains("and 9995 more"))
        #expect(listError.description.count < 600)
    }
}
