/*
Abstract:
Tests for the device settings file: defaults, atomic saves, and malformed files refused by key.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Device settings")
struct DeviceSettingsTests {
    static func load(_ json: String) throws -> DeviceSettings {
        let folder = try TemporaryDirectory()
        let url = folder.appending("settings.json")
        try Data(json.utf8).write(to: url)
        return try DeviceSettings.load(from: url)
    }

    @Test("Without settings.json the device has an iPhone's defaults")
    func defaults() throws {
        let root = try TemporaryDeviceRoot()
        let settings = try DeviceSettings.load(from: DevicePaths(root: root.url).deviceSettingsFile)
        #expect(settings == DeviceSettings())
        #expect(!settings.lowPowerMode)
        #expect(settings.backgroundAppRefresh)
        #expect(settings.inAppContent)
        #expect(settings.allowsBackgroundAppRefresh(for: "com.example.App"))
    }

    @Test("Saved settings load back, written atomically into system/")
    func roundTrip() throws {
        let root = try TemporaryDeviceRoot()
        let file = DevicePaths(root: root.url).deviceSettingsFile
        var settings = DeviceSettings()
        settings.lowPowerMode = true
        settings.inAppContent = false
        settings.backgroundAppRefreshByApp = ["com.example.App": false]
        try settings.save(to: file)
        #expect(try DeviceSettings.load(from: file) == settings)
        settings.lowPowerMode = false
        try settings.save(to: file)
        #expect(try DeviceSettings.load(from: file) == settings)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == [
                "settings.json"
            ])
    }

    @Test("A partial file keeps the defaults for the keys it leaves out")
    func partialFile() throws {
        let settings = try Self.load(#"{"backgroundAppRefreshByApp": {"com.example.App": false}}"#)
        #expect(!settings.allowsBackgroundAppRefresh(for: "com.example.App"))
        #expect(settings.allowsBackgroundAppRefresh(for: "com.example.Other"))
        #expect(settings.inAppContent)
    }

    static let malformed: [(json: String, key: String?)] = [
        ("{not json", nil),
        ("[true]", nil),
        ("", nil),
        (#"{"lowPowerMode": 1}"#, "lowPowerMode"),
        (#"{"lowPowerMode": "yes"}"#, "lowPowerMode"),
        (#"{"backgroundAppRefresh": null}"#, "backgroundAppRefresh"),
        (#"{"inAppContent": {"on": true}}"#, "inAppContent"),
        (#"{"lowpowermode": true}"#, "lowpowermode"),
        (#"{"backgroundAppRefreshByApp": true}"#, "backgroundAppRefreshByApp"),
        (#"{"backgroundAppRefreshByApp": {"com.example.App": 0}}"#, "backgroundAppRefreshByApp"),
        (#"{"backgroundAppRefreshByApp": {"../escape": false}}"#, "backgroundAppRefreshByApp"),
        (#"{"appleHostingServer": "ftp://mirror.example.com"}"#, "appleHostingServer"),
        (#"{"appleHostingServer": "http://cdn.example.com"}"#, "appleHostingServer"),
        (#"{"appleHostingServer": true}"#, "appleHostingServer"),
    ]

    @Test("The Apple hosting server is absent until set, and an https or loopback URL loads back as written")
    func appleHostingServer() throws {
        #expect(try Self.load("{}").appleHostingServer == nil)
        #expect(try Self.load(#"{"appleHostingServer": "http://127.0.0.1:8080"}"#).appleHostingServer == "http://127.0.0.1:8080")
        let root = try TemporaryDeviceRoot()
        let file = DevicePaths(root: root.url).deviceSettingsFile
        var settings = DeviceSettings()
        settings.appleHostingServer = "https://hosting.example.com/packs"
        try settings.save(to: file)
        #expect(try DeviceSettings.load(from: file) == settings)
        try DeviceSettings().save(to: file)
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("appleHostingServer"),
                "a device that never set it writes the file as before")
    }

    @Test("A malformed settings file is refused, naming the file and the key", arguments: malformed)
    func refusals(_ json: String, _ key: String?) throws {
        do {
            _ = try Self.load(json)
            Issue.record("\(json) was accepted")
        } catch let error as DeviceSettingsError {
            #expect(error.key == key)
            #expect(error.description.contains("settings.json"))
            if let key { #expect(error.description.contains(key)) }
        }
    }

    @Test("A settings file too large to be one is refused before it is read")
    func oversized() throws {
        let folder = try TemporaryDirectory()
        let url = folder.appending("settings.json")
        try Data(repeating: 0x20, count: (1 << 20) + 1).write(to: url)
        #expect(throws: DeviceSettingsError.self) { try DeviceSettings.load(from: url) }
    }
}
