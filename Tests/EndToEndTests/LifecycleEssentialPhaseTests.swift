/*
Abstract:
End-to-end: an install's essential downloads run first, hold the app at its launch gate, and reach the extension as a batch.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Install essential downloads before launch")
    struct LifecycleEssentialPhaseTests {
        /// Bytes per second per response: each session file takes about a second to arrive.
        static let throttle = 65_536

        @Test("Essential downloads finish before the app launches and before any other download starts")
        func essentialPhaseComesFirst() async throws {
            let throttled = ["--throttle", String(Self.throttle)]
            try await withLifecycle(sessionSize: Self.throttle, serverArguments: throttled) { life in
                try life.write(life.behaviour())
                let essential = Set(life.essentialSessions.map(\.id))
                let others = Set(life.otherSessions.map(\.id))
                #expect(essential.count == 2 && others.count == 2)
                // No essential file can arrive faster than the throttle allows: half of that is a safe floor.
                let floor = Double(life.essentialSessions.map(\.size).max() ?? 0) / Double(Self.throttle) / 2

                let started = Date()
                let install = try life.launchInstall()
                try await install.runScoped { install in
                    // The app starts while its essential downloads run, and waits at the launch gate.
                    _ = try await life.waitForAppStatus("the app registered") { _ in true }
                    let app = try life.launchApp()
                    try await app.runScoped { app in
                        #expect(try await install.waitForExit(timeout: .seconds(60)) == .exited(0),
                                "\(install.standardError())")
                        let installed = Date()
                        // install --wait returned: every essential download has ended by now.
                        let status = try #require(try await life.appStatus())
                        #expect(status["state"] as? String == "launchable")
                        #expect(status[path: "progress", "essentialFinished"] as? Int == 2, "\(status)")
                        #expect(status[path: "progress", "essentialTotal"] as? Int == 2, "\(status)")
                        #expect(installed.timeIntervalSince(started) >= floor)
                        #expect(try await app.waitForExit(timeout: .seconds(60)) == .exited(0), "\(app.standardError())")
                    }
                }
                // Started during the install, the app's process launched it once, when the install
                // ended: its introduction at start and its launch gate do not count twice.
                let events = life.trace()
                let launches = events.indices.filter { events[$0].event == "appLaunched" }
                #expect(launches.count == 1, "\(launches.map { events[$0] })")
                let madeLaunchable = try #require(events.firstIndex { $0.event == "appLaunchable" })
                #expect(launches.allSatisfy { $0 > madeLaunchable })

                let launchable = try #require(life.appCalls().calls("launchable").first)
                // Started from the build folder, the app moved into its installed bundle before main.
                #expect(launchable.mainBundleIdentifier == life.bundle.bundleIdentifier)
                let gateOpened = launchable.date.timeIntervalSince(started)
                #expect(gateOpened >= floor, "the gate opened \(gateOpened) s into the install, too soon for its files")

                let calls = try await life.waitForExtensionCalls("every session finished") {
                    $0.downloads("finished").isSuperset(of: essential.union(others))
                }
                let outcomes = calls.enumerated().filter { ["finished", "failed"].contains($0.element.entryPoint) }
                let essentialOutcomes = outcomes.filter { essential.contains($0.element.download ?? "") }
                let otherOutcomes = outcomes.filter { others.contains($0.element.download ?? "") }
                // One launch, one call each, back to back, marked essential.
                #expect(essentialOutcomes.count == 2, "\(calls)")
                #expect(Set(essentialOutcomes.map(\.element.pid)).count == 1, "\(calls)")
                #expect(essentialOutcomes.allSatisfy { $0.element.isEssential == true }, "\(calls)")
                if let first = essentialOutcomes.first?.offset, let last = essentialOutcomes.last?.offset {
                    #expect(last - first == essentialOutcomes.count - 1, "the batch was interleaved: \(calls)")
                    #expect(otherOutcomes.allSatisfy { $0.offset > last }, "\(calls)")
                }
                for id in essential.union(others) {
                    let file = life.filesFolder.appendingPathComponent(id)
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? Int
                    #expect(size == life.sessions.first { $0.id == id }?.size, "\(id) was not moved whole")
                }

                // The trace: no other download began before the extension had the essential outcomes.
                let trace = life.trace()
                let batchDelivered = trace.filter {
                    $0.to == "extension" && $0.event == "backgroundDownload(_:finishedWithFileURL:)"
                        && essential.contains($0.download ?? "")
                }.map(\.time).max()
                let otherBegan = trace.filter { $0.event == "downloadDidBegin" && others.contains($0.download ?? "") }
                    .map(\.time).min()
                let delivered = try #require(batchDelivered, "the trace has no essential finishedWithFileURL call")
                let began = try #require(otherBegan, "the trace has no downloadDidBegin for the other sessions")
                let order = "another download began at \(began.millisecondText), the batch at \(delivered.millisecondText)"
                #expect(began >= delivered, "\(order)")

                // The server saw every essential transfer end before any other session's transfer ended.
                let log = try life.accessLog()
                let essentialPaths = Set(life.essentialSessions.map(\.path))
                let otherPaths = Set(life.otherSessions.map(\.path))
                let lastEssential = try #require(log.lastIndex { essentialPaths.contains($0.path) })
                let firstOther = try #require(log.firstIndex { otherPaths.contains($0.path) })
                #expect(lastEssential < firstOther, "\(log.map(\.path))")
            }
        }

        @Test("install --wait returns once the extension has moved every essential file into place, though it asks for exclusive control after its entry point returned")
        func installWaitsForFilesMovedUnderExclusiveControl() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                // Asked for 100 ms after each finished call returned (within the idle grace), and held 500 ms.
                behaviour.moveUnderExclusiveControlAfter = 0.1
                try life.write(behaviour)
                let install = try life.launchInstall()
                let exit = try await install.runScoped { install in try await install.waitForExit(timeout: .seconds(60)) }
                #expect(exit == .exited(0), "\(install.standardError())")
                // install --wait returned: a person opening the app now finds every essential file.
                for session in life.essentialSessions {
                    let file = life.filesFolder.appendingPathComponent(session.id)
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? Int
                    #expect(size == session.size, "\(session.id) was not in place when install --wait returned: \(life.extensionCalls())")
                }
            }
        }
    }
}

extension Date {
    /// The time with milliseconds, as the trace records it, for messages comparing two trace entries.
    var millisecondText: String {
        formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }
}
