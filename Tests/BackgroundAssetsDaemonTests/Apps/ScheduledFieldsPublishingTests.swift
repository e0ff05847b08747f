/*
Abstract:
Tests that the app registry and the task store tell the service of each change the schedules read.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("The records the schedules read publish their changes")
struct ScheduledFieldsPublishingTests {
    @Test("The registry tells of a save, a launch, a periodic check and an uninstall, and not of a change the schedules do not read")
    func registryPublishesScheduledFields() async throws {
        let root = try TemporaryDeviceRoot()
        let told = Mutex<[String]>([])
        let registry = AppRegistry(paths: DevicePaths(root: root.url)) { app in told.withLock { $0.append(app) } }
        let app = try AppRegistryTests.sampleApp()
        let id = app.bundleIdentifier
        try await registry.save(app)
        #expect(told.withLock { $0 } == [id], "an install is a change")

        try await registry.update(id) { $0.recordExtensionRuntime(3, at: AppRegistryTests.installDate) }
        try await registry.update(id) { $0.allowance.lift() }
        #expect(told.withLock { $0 } == [id], "runtime and allowance are not what the schedules read")

        try await registry.update(id) { $0.recordLaunch(at: AppRegistryTests.installDate.addingTimeInterval(60)) }
        try await registry.update(id) { $0.lastPeriodicCheck = AppRegistryTests.installDate.addingTimeInterval(120) }
        try await registry.update(id) { $0.lastPeriodicCheck = AppRegistryTests.installDate.addingTimeInterval(120) }
        #expect(told.withLock { $0 } == [id, id, id], "a launch and a check are; writing the same date again is not")

        try await registry.uninstall(id)
        try await registry.uninstall(id)
        #expect(told.withLock { $0 } == [id, id, id, id], "an uninstall is; removing what is not there is not")
    }

    @Test("The task store tells of each request stored or removed, and not of a removal that found nothing")
    func taskStorePublishesRequests() async throws {
        let folder = try TemporaryDirectory(prefix: "ba-tasks")
        let told = Mutex(0)
        let store = try TaskStore(url: folder.appending("tasks.sqlite")) { told.withLock { $0 += 1 } }
        try await store.save(TaskSchedulingTests.pending())
        try await store.save(TaskSchedulingTests.pending("cleanup", kind: .processing))
        #expect(told.withLock { $0 } == 2)
        #expect(try await store.remove(app: TaskSchedulingTests.app, identifier: "refresh") == 1)
        #expect(try await store.remove(app: TaskSchedulingTests.app, identifier: "refresh") == 0)
        #expect(told.withLock { $0 } == 3)
    }
}
