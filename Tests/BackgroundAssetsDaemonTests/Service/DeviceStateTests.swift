/*
Abstract:
Tests for the device state the schedulers observe: each input moves the revisions of the schedules that read it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Device state")
struct DeviceStateTests {
    static func started() -> DeviceState {
        var state = DeviceState(settings: DeviceSettings(), clock: DeviceClock(origin: Date(timeIntervalSince1970: 0)))
        state.serviceStarted()
        return state
    }

    /// The two revisions' changes from `before` to `after`.
    static func moved(_ before: DeviceState, _ after: DeviceState) -> (periodic: Bool, tasks: Bool) {
        (after.periodicRevision != before.periodicRevision, after.taskRevision != before.taskRevision)
    }

    @Test("Starting the service computes both schedules")
    func start() {
        let fresh = DeviceState(settings: DeviceSettings(), clock: DeviceClock(origin: Date(timeIntervalSince1970: 0)))
        var state = fresh
        #expect(!state.isStarted)
        state.serviceStarted()
        #expect(state.isStarted)
        #expect(Self.moved(fresh, state) == (true, true))
    }

    @Test("A settings change moves both schedules; the same settings again move neither")
    func settings() {
        var state = Self.started()
        var changed = state.settings
        changed.lowPowerMode.toggle()
        let before = state
        state.setSettings(changed)
        #expect(Self.moved(before, state) == (true, true))
        #expect(state.settings == changed)
        let after = state
        state.setSettings(changed)
        #expect(Self.moved(after, state) == (false, false))
    }

    @Test("A new device clock moves both schedules; the same clock again moves neither")
    func clock() {
        var state = Self.started()
        let before = state
        let reset = DeviceClock(origin: Date(timeIntervalSince1970: 60), timeScale: 3600)
        state.setClock(reset)
        #expect(Self.moved(before, state) == (true, true))
        let after = state
        state.setClock(reset)
        #expect(Self.moved(after, state) == (false, false))
    }

    @Test("An install beginning or ending moves both schedules; another install event moves neither")
    func installing() {
        var state = Self.started()
        let before = state
        state.setInstalling(["com.example.sample"])
        #expect(Self.moved(before, state) == (true, true))
        // Progress of the same install leaves the set of installing apps as it was.
        let during = state
        state.setInstalling(["com.example.sample"])
        #expect(Self.moved(during, state) == (false, false))
        state.setInstalling([])
        #expect(Self.moved(during, state) == (true, true))
        #expect(state.installing.isEmpty)
    }

    @Test("An app's record moves both schedules; a task change moves only the task runner's")
    func recordsAndTasks() {
        var state = Self.started()
        let before = state
        state.appRecordChanged()
        #expect(Self.moved(before, state) == (true, true))
        let recorded = state
        state.tasksChanged()
        #expect(Self.moved(recorded, state) == (false, true))
    }
}
