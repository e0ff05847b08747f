/*
Abstract:
Tests that the extension host's limits (a call's runtime limit, the idle grace, a hold on exclusive control) pass when the service's clock passes them.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The extension host on a manual clock", .serialized, .timeLimit(.minutes(3)))
struct ExtensionLimitClockTests {
    static let contentRequest = "downloads(for:manifestURL:extensionInfo:)"

    @Test("An entry point running past extensionRuntimeLimit is killed when the limit passes on the clock, not before")
    func runtimeLimit() async throws {
        try await InProcessService.with({ $0.extensionRuntimeLimit = 60 }) { device in
            // The extension sleeps for an hour of real time in the install's content request.
            let app = try await device.installTestApp(behaviour: ["sleepSeconds": 3600, "misbehaveFor": [1]])
            defer { app.manifestServer.stop() }
            try await device.waitForTrace("the content request") { $0.event == Self.contentRequest }
            try await device.waitForDeadline("the call's deadline") { $0 == .seconds(60) }

            try await device.expectNothing("extensionKilled", after: .seconds(59), leaving: .seconds(1))

            device.clock.advance(by: .seconds(2))
            let killed = try await device.waitForTrace("the kill") { $0.event == "extensionKilled" }
            #expect(killed.detail?.contains("ran longer than the 60 s extensionRuntimeLimit") == true, "\(killed)")
            try await device.waitForTrace("the extension's exit") { $0.event == "extensionExited" }
        }
    }

    @Test("An idle extension is asked to terminate once the idle grace passes on the clock, not before")
    func idleGrace() async throws {
        try await InProcessService.with { device in
            let app = try await device.installTestApp()
            defer { app.manifestServer.stop() }
            try await device.waitForTrace("the content request's return") { $0.event == "return" }
            let grace = ExtensionHost.extensionIdleGrace
            try await device.waitForDeadline("the idle grace") { $0 == grace }

            try await device.expectNothing("extensionWillTerminate()", after: grace - .milliseconds(50), leaving: .milliseconds(50))

            device.clock.advance(by: .milliseconds(100))
            try await device.waitForTrace("extensionWillTerminate()") { $0.event == "extensionWillTerminate()" }
            let exited = try await device.waitForTrace("the extension's exit") { $0.event == "extensionExited" }
            #expect(exited.detail?.contains("terminated after its work") == true, "\(exited)")
        }
    }

    @Test("An extension holding exclusive control after its last call is killed once extensionRuntimeLimit passes on the clock")
    func exclusiveControlHoldIsBounded() async throws {
        try await InProcessService.with({ $0.extensionRuntimeLimit = 60 }) { device in
            // It returns at once, and holds control from a task for an hour of real time.
            let app = try await device.installTestApp(behaviour: ["returnFor": [Int](), "exclusiveControlSeconds": 3600])
            defer { app.manifestServer.stop() }
            try await device.waitForTrace("the extension's hold") { $0.from == "extension" && $0.event == "acquireExclusiveControl" }
            try await device.waitForTrace("the content request's return") { $0.event == "return" }
            let grace = ExtensionHost.extensionIdleGrace
            try await device.waitForDeadline("the idle grace") { $0 == grace }
            // Past the idle grace, it is not asked to terminate: it holds control, for at most the limit.
            device.clock.advance(by: grace)
            try await device.waitForDeadline("the hold's limit") { $0 == .seconds(60) }
            #expect(!device.trace.contains { $0.event == "extensionWillTerminate()" }, "asked to terminate while it held control")

            try await device.expectNothing("extensionKilled", after: .seconds(59), leaving: .seconds(1))

            device.clock.advance(by: .seconds(2))
            let killed = try await device.waitForTrace("the kill") { $0.event == "extensionKilled" }
            #expect(killed.detail?.contains("held exclusive control for more than the 60 s") == true, "\(killed)")
        }
    }
}
