/*
Abstract:
Tests for when periodic content requests are due, watched through an accelerated device clock.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Periodic schedule")
struct PeriodicScheduleTests {
    static let day: TimeInterval = 24 * 3600
    static let start = AppRegistryTests.installDate
    static let schedule = PeriodicSchedule()

    static func launchableApp(launchesDaysAgo: [Double], now: Date) throws -> InstalledApp {
        var app = try AppRegistryTests.sampleApp()
        app.state = .launchable
        app.installDate = now.addingTimeInterval(-60 * day)
        for daysAgo in launchesDaysAgo { app.recordLaunch(at: now.addingTimeInterval(-daysAgo * day)) }
        return app
    }

    static let tiers: [(launchesDaysAgo: [Double], interval: TimeInterval?)] = [
        ([0.1, 0.5, 1, 1.5], day / 2),
        ([0.1, 3, 4, 5], day / 2),
        ([0.1, 3, 4], day),
        ([0.1, 3, 4, 8, 9], day),
        ([1.9], day),
        ([0.5, 1], day),
        ([2.5], 3 * day),
        ([6.9, 6.95, 6.99, 6.999, 6.9999], 3 * day),
        ([7.5], 7 * day),
        ([27.9], 7 * day),
        ([28.1], nil),
        ([90, 100], nil),
    ]

    @Test("Recent, frequent use checks more often; four weeks without a launch stops the checks", arguments: tiers)
    func intervals(_ launchesDaysAgo: [Double], _ expected: TimeInterval?) throws {
        let app = try Self.launchableApp(launchesDaysAgo: launchesDaysAgo, now: Self.start)
        let interval = Self.schedule.interval(
            launches: app.launchHistory, installDate: app.installDate, now: Self.start)
        #expect(interval == expected)
    }

    @Test("An app never launched is scheduled from its install date")
    func neverLaunched() throws {
        var app = try AppRegistryTests.sampleApp()
        app.state = .launchable
        let settings = DeviceSettings()
        #expect(
            Self.schedule.nextCheck(for: app, settings: settings, now: Self.start)
                == .due(Self.start.addingTimeInterval(Self.day)))
        let later = Self.start.addingTimeInterval(29 * Self.day)
        #expect(Self.schedule.nextCheck(for: app, settings: settings, now: later) == .never(.unused))
    }

    @Test("Low-power mode, background refresh off, or an app still installing never get a check")
    func neverAllowed() throws {
        let app = try Self.launchableApp(launchesDaysAgo: [0.1], now: Self.start)
        var settings = DeviceSettings()
        settings.lowPowerMode = true
        #expect(Self.schedule.nextCheck(for: app, settings: settings, now: Self.start) == .never(.lowPowerMode))
        settings = DeviceSettings()
        settings.backgroundAppRefresh = false
        settings.backgroundAppRefreshByApp[app.bundleIdentifier] = true
        #expect(
            Self.schedule.nextCheck(for: app, settings: settings, now: Self.start) == .never(.backgroundAppRefreshOff))
        settings = DeviceSettings()
        settings.backgroundAppRefreshByApp[app.bundleIdentifier] = false
        #expect(
            Self.schedule.nextCheck(for: app, settings: settings, now: Self.start) == .never(.backgroundAppRefreshOff))
        settings.backgroundAppRefreshByApp = ["com.example.Other": false]
        #expect(
            Self.schedule.nextCheck(for: app, settings: settings, now: Self.start) != .never(.backgroundAppRefreshOff))
        var installing = app
        installing.state = .installing
        #expect(
            Self.schedule.nextCheck(for: installing, settings: DeviceSettings(), now: Self.start) == .never(.installing)
        )
    }

    @Test("An overdue check is due now, not in the past")
    func overdue() throws {
        var app = try Self.launchableApp(launchesDaysAgo: [0.5], now: Self.start)
        app.lastPeriodicCheck = Self.start.addingTimeInterval(-5 * Self.day)
        #expect(Self.schedule.nextCheck(for: app, settings: DeviceSettings(), now: Self.start) == .due(Self.start))
    }

    @Test("With timeScale 10080 a month of periodic checks after one launch happens in under five real minutes")
    func acceleratedMonth() throws {
        let clock = DeviceClock(origin: Self.start, timeScale: 10_080)
        var app = try AppRegistryTests.sampleApp()
        app.state = .launchable
        app.recordLaunch(at: clock.deviceTime(at: Self.start))
        var now = clock.deviceTime(at: Self.start)
        var checkDays: [Double] = []
        while case let .due(date) = Self.schedule.nextCheck(for: app, settings: DeviceSettings(), now: now),
            checkDays.count < 50
        {
            now = date
            app.lastPeriodicCheck = date
            checkDays.append(date.timeIntervalSince(Self.start) / Self.day)
        }
        #expect(checkDays == [1, 2, 3, 6, 9, 16, 23, 30])
        #expect(Self.schedule.nextCheck(for: app, settings: DeviceSettings(), now: now) == .never(.unused))
        let realSeconds = clock.realTime(at: now).timeIntervalSince(Self.start)
        #expect(abs(realSeconds - 30 * Self.day / 10_080) < 0.001)
        #expect(realSeconds < 300)
        // A launch starts the checks again.
        app.recordLaunch(at: now)
        #expect(
            Self.schedule.nextCheck(for: app, settings: DeviceSettings(), now: now)
                == .due(now.addingTimeInterval(Self.day)))
    }

    @Test("The device clock runs timeScale times faster and converts delays back to real time")
    func deviceClock() {
        let clock = DeviceClock(origin: Self.start, timeScale: 60)
        #expect(clock.deviceTime(at: Self.start.addingTimeInterval(10)) == Self.start.addingTimeInterval(600))
        #expect(clock.realTime(at: Self.start.addingTimeInterval(600)) == Self.start.addingTimeInterval(10))
        #expect(clock.realInterval(forDeviceInterval: 3600) == 60)
        #expect(clock.realInterval(forDeviceInterval: -5) == 0)
        for bad in [0, -1, Double.nan, Double.infinity] {
            #expect(DeviceClock(origin: Self.start, timeScale: bad).timeScale == 1)
        }
    }

    @Test("A restarted clock resumes from the latest recorded device time, never before real time")
    func resumingClock() {
        let ahead = Self.start.addingTimeInterval(5 * Self.day)
        let resumed = DeviceClock.resuming(at: Self.start, latestRecorded: ahead, timeScale: 3600)
        #expect(resumed.deviceTime(at: Self.start) == ahead)
        #expect(resumed.deviceTime(at: Self.start.addingTimeInterval(1)) == ahead.addingTimeInterval(3600))
        #expect(resumed.realTime(at: ahead.addingTimeInterval(7200)) == Self.start.addingTimeInterval(2))
        let behind = DeviceClock.resuming(at: Self.start, latestRecorded: Self.start.addingTimeInterval(-Self.day), timeScale: 1)
        #expect(behind.deviceTime(at: Self.start) == Self.start)
        #expect(DeviceClock.resuming(at: Self.start, latestRecorded: nil, timeScale: 1).deviceTime(at: Self.start) == Self.start)
    }
}
