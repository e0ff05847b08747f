/*
Abstract:
End-to-end: a periodic check after the catalog gained a session downloads that session alone, with the app closed.
*/

import BackgroundAssetsIPC
import Foundation
import SessionKit
import Testing
import TestSupport

extension SampleTests {
    @Suite("Check for a new session periodically")
    struct SamplePeriodicCheckTests {
        @Test("A periodic check downloads only the session added to the catalog, through the extension")
        func periodicCheckFetchesOnlyTheNewSession() async throws {
            try await withSampleDevice { device in
                let original = try await device.installAndRunToCompletion()

                // The asset server opens manifest.json and every file on each request, so a changed
                // catalog is served at once.
                let added = try await addSession(id: "wwdc23-10257", size: 21_000, to: device.server.catalogURL)
                #expect(try device.catalog().map(\.id) == original.map(\.id) + [added.id])
                let logBefore = try device.accessLog().count
                let traceBefore = device.trace().count

                let bundle = SampleDevice.bundleIdentifier
                try await device.tool(["simulate", "--periodic-check", "--app-bundle-id", bundle])
                try await device.waitUntilVerified([added])

                // Only the manifest and the new session were requested.
                let requests = try device.accessLog().dropFirst(logBefore)
                #expect(Set(requests.map(\.path)).isSubset(of: ["/manifest.json", added.path]), "\(requests)")
                #expect(requests.filter { $0.path == added.path }.map(\.status) == [200], "\(requests)")
                #expect(requests.filter { $0.path == added.path }.map(\.bytes) == [Int64(added.size)])

                // The extension asked for it and moved it into place; the app stayed closed.
                let trace = Array(device.trace().dropFirst(traceBefore))
                #expect(!trace.showsAppLaunch, "the app ran: \(trace.map(\.event))")
                #expect(trace.contains { $0.event == "contentRequest" && $0.detail == "periodic" },
                        "\(trace.map(\.event))")
                #expect(trace.filter { $0.event == "downloadDidBegin" }.compactMap(\.download) == [added.id],
                        "\(trace.map { "\($0.event) \($0.download ?? "")" })")
                #expect(trace.finishesHandledByExtension == [added.id], "\(trace.finishesHandledByExtension)")

                let listed = try await device.listedSessions()
                #expect(listed.map(\.id) == original.map(\.id) + [added.id])
                #expect(listed.allSatisfy { $0.state == "downloaded" }, "\(listed)")
                let verified = try await device.verifiedSessions(of: original + [added])
                #expect(verified == Set((original + [added]).map(\.id)))
            }
        }
    }
}

/// Adds a session to a catalog folder: its file under `sessions/`, and an entry at the end of
/// manifest.json with the file's size and SHA-256, the manifest's version raised by one.
///
/// The manifest is replaced with a rename, so the server never serves half of it.
/// - Returns: The new session, as the catalog now lists it.
func addSession(id: String, size: Int, to catalog: URL) async throws -> CatalogSession {
    let relativePath = "sessions/\(id).mp4"
    var generator = SystemRandomNumberGenerator()
    let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let file = catalog.appendingPathComponent(relativePath)
    try bytes.write(to: file)

    let manifestURL = catalog.appendingPathComponent("manifest.json")
    var manifest = try Manifest.load(from: manifestURL)
    let digest = try await sha256(of: file)
    manifest.sessions.append(Session(
        id: id, title: "Added after the install", url: URL(string: relativePath)!, fileSize: size, sha256: digest,
        essential: false))
    manifest.version += 1
    let staged = catalog.appendingPathComponent(".manifest.json.new")
    try manifest.encoded().write(to: staged)
    guard rename(staged.path, manifestURL.path) == 0 else {
        throw TestSupportError("Could not replace \(manifestURL.path): errno \(errno).")
    }
    return CatalogSession(id: id, path: "/" + relativePath, size: size, sha256: digest, essential: false)
}
