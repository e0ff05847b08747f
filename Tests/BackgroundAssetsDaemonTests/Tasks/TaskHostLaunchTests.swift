/*
Abstract:
Tests for what the task host remembers of background launches and of tasks that ended by force.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
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

    @Test("A process being ended loses its launch handlers at once, so a task ready later launches the app again; its running tasks stay")
    func endingProcessReceivesNoTask() {
        var host = TaskHost()
        host.register(app: "com.example.app", identifier: "refresh", connection: 7)
        host.register(app: "com.example.app", identifier: "cleanup", connection: 7)
        host.register(app: "com.example.other", identifier: "refresh", connection: 8)
        let request = TaskRequestDescriptor(identifier: "refresh", kind: .appRefresh, earliestBeginDate: nil)
        let running = host.start(request, app: "com.example.app", connection: 7, now: .now, limit: 30)
        host.withdrawHandlers(of: 7)
        #expect(host.handler(app: "com.example.app", identifier: "refresh") == nil)
        #expect(host.handler(app: "com.example.app", identifier: "cleanup") == nil)
        #expect(host.handler(app: "com.example.other", identifier: "refresh") == 8, "another process keeps its handler")
        #expect(host.runningTasks.map(\.taskID) == [running.taskID], "what already runs there is not ended by it")
        // The next launch registers again, and the latest registration is the one tasks go to.
        host.register(app: "com.example.app", identifier: "cleanup", connection: 9)
        #expect(host.handler(app: "com.example.app", identifier: "cleanup") == 9)
    }
}
