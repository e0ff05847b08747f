/*
Abstract:
Tests for what the task host remembers of background launches and of tasks that ended by force.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Background launches")
struct TaskHostLaunchTests {
    @Test("One background launch per app is remembered until it is removed")
    func launches() throws {
        var host = TaskHost()
        #expect(host.backgroundLaunch(of: "com.example.app") == nil && host.backgroundLaunches.isEmpty)
        let process = try ExtensionProcess.launch(executable: URL(fileURLWithPath: "/bin/true"), environment: [:]) { _ in }
        host.recordBackgroundLaunch(process, of: "com.example.app")
        #expect(host.backgroundLaunch(of: "com.example.app")?.processIdentifier == process.processIdentifier)
        #expect(host.backgroundLaunch(of: "com.example.other") == nil)
        #expect(host.backgroundLaunches.count == 1)
        #expect(host.removeBackgroundLaunch(of: "com.example.app")?.processIdentifier == process.processIdentifier)
        #expect(host.removeBackgroundLaunch(of: "com.example.app") == nil)
        #expect(host.backgroundLaunches.isEmpty)
    }

    @Test("The last forced ending of each app's task is kept, the newest winning")
    func endings() {
        var host = TaskHost()
        #expect(host.lastEnding(of: "com.example.app") == nil)
        host.recordEnding(of: "com.example.app", reason: "first")
        host.recordEnding(of: "com.example.app", reason: "second")
        #expect(host.lastEnding(of: "com.example.app") == "second")
        #expect(host.lastEnding(of: "com.example.other") == nil)
    }
}
