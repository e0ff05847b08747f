/*
Abstract:
`import os` as Apple's documentation writes it: a logger, os_log with a format string and with a message, and a signposted interval.
*/

// Written from Apple's declarations in the os module; if it builds (in Swift 6 and, through a
// symlink, in Swift 5 language mode), Apple code that imports os builds. The lines it would write
// land in the device log and the trace, which OSLogTests' SignpostDeviceTests checks in a device
// root of its own; here the loader runs with the log and signposter switched off, so a test run
// writes nothing into the developer's device.
import os
import Testing

/// A model that measures its work with a signposter and logs as Apple's samples do.
struct AppleStyleCatalogLoader {
    var log = OSLog(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "catalog")
    var signposter = OSSignposter(
        logger: Logger(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "catalog"))

    func load(_ identifiers: [String]) -> Int {
        let signpostID = signposter.makeSignpostID()
        let state = signposter.beginInterval("Load catalog", id: signpostID, "\(identifiers.count) sessions")
        defer { signposter.endInterval("Load catalog", state, "done") }
        signposter.emitEvent("Catalog opened", id: signpostID)
        os_log("Loading %ld sessions", log: log, type: .info, identifiers.count)
        os_log(.info, log: log, "First session: %{public}@", identifiers.first ?? "none")
        os_log(.info, log: log, "Loading \(identifiers.count) sessions")
        return signposter.withIntervalSignpost("Count bytes", id: .exclusive) {
            identifiers.reduce(0) { $0 + $1.utf8.count }
        }
    }
}

@Suite("os, as Apple declares it")
struct AppleOSUsageTests {
    @Test("os_log, Logger and OSSignposter compile as Apple's documentation writes them, and run")
    func loggingAndSignposts() throws {
        let loader = AppleStyleCatalogLoader(log: .disabled, signposter: .disabled)
        #expect(loader.load(["wwdc2023-10108", "wwdc2022-110403"]) == 29)
        #expect(AppleStyleCatalogLoader().signposter.isEnabled && !loader.signposter.isEnabled)
        let first = loader.signposter.makeSignpostID()
        #expect(loader.signposter.makeSignpostID() != first && first != .exclusive && first != .null)
        let restored = OSSignpostIntervalState.beginState(id: first)
        loader.signposter.endInterval("Restored", restored)
        #expect(try loader.signposter.withIntervalSignpost("Parse") { try Int("42", format: .number) } == 42)
    }
}
