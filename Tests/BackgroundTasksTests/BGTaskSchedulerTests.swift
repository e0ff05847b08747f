/*
Abstract:
Tests of Background Tasks' scheduler in one process: Apple's rules, handlers, completion and expiration.
*/

@testable import BackgroundTasks
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("BGTaskScheduler")
struct BGTaskSchedulerTests {
    static let refresh = "com.example.sessions.refresh"
    static let cleanup = "com.example.sessions.cleanup"

    let transport = FakeTaskTransport()
    let reports = Locked<[String]>([])

    /// A scheduler on the fake transport; by default launches are handed over at once, as if the
    /// app had finished launching, and `afterLaunch` puts the real gate back.
    func makeScheduler(
        permitted: [String] = [refresh, cleanup], modes: [String] = ["fetch", "processing"], isExtension: Bool = false,
        afterLaunch: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
    ) -> BGTaskScheduler {
        let reports = self.reports
        return BGTaskScheduler(
            environment: TaskSchedulerEnvironment(
                transport: transport, isExtension: isExtension,
                permission: TaskPermission(permittedIdentifiers: permitted, backgroundModes: modes),
                report: { line in reports.withLock { $0.append(line) } }, afterLaunch: afterLaunch))
    }

    @Test("A task that arrives while the app's start-up holds the main thread runs only once the main thread is free")
    func launchWaitsForTheEndOfLaunch() async throws {
        let scheduler = makeScheduler(afterLaunch: TaskSchedulerEnvironment.onMainThreadWhenFree)
        let events = Locked<[String]>([])
        let ranDuringStartUp = await MainActor.run {
            // An initialiser on the main thread: it registers, the system hands over the task at
            // once, and the initialiser goes on setting the app up for a while.
            scheduler.register(forTaskWithIdentifier: Self.cleanup, using: nil) { task in
                events.withLock { $0.append("launch") }
                task.setTaskCompleted(success: true)
            }
            transport.launch(11, TaskRequestDescriptor(identifier: Self.cleanup, kind: .processing))
            let setUp = Date(timeIntervalSinceNow: 1)
            var ran = false
            while Date() < setUp, !ran {
                ran = events.withLock { !$0.isEmpty }
                Thread.sleep(forTimeInterval: 0.01)
            }
            events.withLock { $0.append("setUp") }
            return ran
        }
        #expect(!ranDuringStartUp, "the launch handler ran inside the app's start-up")
        try await poll(until: { transport.completion(of: 11) != nil }, "task 11 to run once start-up ended")
        #expect(events.withLock { $0 } == ["setUp", "launch"])
    }

    @Test("A permitted identifier registers once; a second registration is refused with a reason")
    func registersOnce() {
        let scheduler = makeScheduler()
        #expect(scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in })
        #expect(!scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in })
        #expect(transport.state.withLock { $0.registered } == [Self.refresh])
        #expect(reports.withLock { $0 }.last?.contains("already registered") == true)
    }

    @Test("An identifier missing from BGTaskSchedulerPermittedIdentifiers cannot be registered or submitted")
    func unlistedIdentifier() throws {
        let scheduler = makeScheduler(permitted: [Self.cleanup])
        #expect(!scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in })
        #expect(reports.withLock { $0 }.last?.contains("BGTaskSchedulerPermittedIdentifiers") == true)
        let error = try #require(throws: BGTaskScheduler.Error.self) {
            try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        }
        #expect(error.code == .notPermitted)
        #expect((error as NSError).domain == BGTaskSchedulerErrorDomain)
        #expect((error as NSError).code == 3)
    }

    @Test("A refresh request needs UIBackgroundModes fetch; a processing request needs processing")
    func backgroundModes() throws {
        let scheduler = makeScheduler(modes: ["processing"])
        let error = try #require(throws: BGTaskScheduler.Error.self) {
            try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        }
        #expect(error.code == .notPermitted)
        #expect(error.message.contains("\"fetch\""))
        try scheduler.submit(BGProcessingTaskRequest(identifier: Self.cleanup))
        #expect(transport.state.withLock { $0.submitted.map(\.kind) } == [.processing])
    }

    @Test("Handlers must be registered before launch ends, at the first submit")
    func registrationAfterLaunch() throws {
        let scheduler = makeScheduler()
        #expect(scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in })
        try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        #expect(!scheduler.register(forTaskWithIdentifier: Self.cleanup, using: nil) { _ in })
        #expect(reports.withLock { $0 }.last?.contains("finished launching") == true)
    }

    @Test("Extensions cannot use Background Tasks")
    func extensionsRefused() throws {
        let scheduler = makeScheduler(isExtension: true)
        #expect(!scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in })
        let error = try #require(throws: BGTaskScheduler.Error.self) {
            try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        }
        #expect(error.code == .unavailable)
    }

    @Test("A submitted request keeps its kind, date and requirements, and comes back from pendingTaskRequests")
    func requestRoundTrip() async throws {
        let scheduler = makeScheduler()
        let request = BGProcessingTaskRequest(identifier: Self.cleanup)
        request.earliestBeginDate = Date(timeIntervalSince1970: 1_800_000_000)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = true
        try scheduler.submit(request)
        let pending = await scheduler.pendingTaskRequests()
        let back = try #require(pending.first as? BGProcessingTaskRequest)
        #expect(back.identifier == Self.cleanup)
        #expect(back.earliestBeginDate == request.earliestBeginDate)
        #expect(back.requiresExternalPower && back.requiresNetworkConnectivity)
        let copy = try #require(request.copy() as? BGProcessingTaskRequest)
        #expect(copy !== request && copy.requiresExternalPower && copy.earliestBeginDate == request.earliestBeginDate)
        scheduler.cancel(taskRequestWithIdentifier: Self.cleanup)
        #expect(await scheduler.pendingTaskRequests().isEmpty)
    }

    @Test("cancelAllTaskRequests() cancels every pending request of the app, not only one identifier")
    func cancelAll() async throws {
        let scheduler = makeScheduler()
        try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        try scheduler.submit(BGProcessingTaskRequest(identifier: Self.cleanup))
        #expect(await scheduler.pendingTaskRequests().count == 2)
        scheduler.cancelAllTaskRequests()
        #expect(transport.state.withLock { $0.cancelled } == [nil], "one request to cancel all, naming no identifier")
        #expect(await scheduler.pendingTaskRequests().isEmpty)
    }

    @Test("The service's refusal reaches the caller as BGTaskScheduler.Error")
    func serviceRefusal() throws {
        let scheduler = makeScheduler()
        transport.state.withLock {
            $0.refusal = BGTaskScheduler.Error(.tooManyPendingTaskRequests, message: "one refresh request at most")
        }
        let error = try #require(throws: BGTaskScheduler.Error.self) {
            try scheduler.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
        }
        #expect(error.code == .tooManyPendingTaskRequests)
    }

    @Test("A launched task runs its handler as the right subclass and completes once")
    func launchAndComplete() async throws {
        let scheduler = makeScheduler()
        let received = Locked<[String]>([])
        scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            received.withLock { $0.append("\(type(of: task)) \(task.identifier)") }
            task.setTaskCompleted(success: true)
            task.setTaskCompleted(success: false)
        }
        transport.launch(7, TaskRequestDescriptor(identifier: Self.refresh, kind: .appRefresh))
        try await poll(until: { transport.completion(of: 7) != nil }, "task 7 to complete on its queue")
        #expect(received.withLock { $0 } == ["BGAppRefreshTask \(Self.refresh)"])
        #expect(transport.completion(of: 7) == true)
    }

    @Test("Expiration runs the task's handler on the registered queue, and the task ends unsuccessfully")
    func expiration() async throws {
        let scheduler = makeScheduler()
        let queue = DispatchQueue(label: "tasks")
        let onQueue = Locked(false)
        scheduler.register(forTaskWithIdentifier: Self.cleanup, using: queue) { task in
            task.expirationHandler = {
                dispatchPrecondition(condition: .onQueue(queue))
                onQueue.withLock { $0 = true }
                task.setTaskCompleted(success: false)
            }
        }
        transport.launch(9, TaskRequestDescriptor(identifier: Self.cleanup, kind: .processing))
        queue.sync {}  // The handler ran: the queue is serial and the launch went onto it first.
        transport.expire(9)
        try await poll(until: { transport.completion(of: 9) != nil }, "task 9 to complete on its queue")
        #expect(onQueue.withLock { $0 })
        #expect(transport.completion(of: 9) == false)
    }
}
