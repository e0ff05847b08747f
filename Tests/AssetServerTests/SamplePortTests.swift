/*
Abstract:
Tests that the asset server and the demo listen on the port App/Info.plist's BAManifestURL names.
*/

@testable import AssetServer
import Foundation
import TestSupport
import Testing

@Suite("The port comes from App/Info.plist")
struct SamplePortTests {
    func package(manifestURL: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "package")
        try FileManager.default.createDirectory(at: folder.appending("App/Sub"), withIntermediateDirectories: true)
        try Data().write(to: folder.appending("Package.swift"))
        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.MyApp", "BAManifestURL": manifestURL]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: folder.appending("App/Info.plist"))
        return folder
    }

    @Test("BAManifestURL on another loopback port moves the default port, from any folder of the package")
    func loopbackPort() throws {
        let folder = try package(manifestURL: "http://127.0.0.1:9090/manifest.json")
        #expect(SamplePort.fromAppInfoPlist(searchingFrom: folder.url) == 9090)
        #expect(SamplePort.fromAppInfoPlist(searchingFrom: folder.appending("App/Sub")) == 9090)
    }

    @Test("A remote BAManifestURL, or no package, leaves the default at 8080")
    func fallback() throws {
        let remote = try package(manifestURL: "https://cdn.example.com/manifest.json")
        #expect(SamplePort.fromAppInfoPlist(searchingFrom: remote.url) == SamplePort.fallback)
        let loose = try TemporaryDirectory(prefix: "loose")
        #expect(SamplePort.fromAppInfoPlist(searchingFrom: loose.url) == 8080)
    }
}
