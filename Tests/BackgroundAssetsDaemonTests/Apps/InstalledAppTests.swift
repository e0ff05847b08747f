/*
Abstract:
Tests for an installed app's launches, updates and daily extension runtime.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Installed app")
struct InstalledAppTests {
    static let day: TimeInterval = 24 * 3600
    static let installDate = AppRegistryTests.installDate

    @Test("A new app is installing, restricted, and has no launches")
    func freshInstall() throws {
        let app = try AppRegistryTests.sampleApp()
        #expect(app.state == .installing)
        #expect(!app.hasLaunched)
        #expect(!app.allowance.isLifted)
        #expect(
            app.allowance.extensionInfo.restrictedDownloadSizeRemaining == app.bundle.app.restrictions.downloadAllowance
        )
        #expect(app.launchHistory.isEmpty)
    }

    @Test("Putting the device clock back moves the install, the launches and the last check back alike")
    func movesDeviceDates() throws {
        var app = try AppRegistryTests.sampleApp()
        app.recordLaunch(at: Self.installDate.addingTimeInterval(60))
        app.recordLaunch(at: Self.installDate.addingTimeInterval(Self.day))
        app.lastPeriodicCheck = Self.installDate.addingTimeInterval(2 * Self.day)
        app.recordExtensionRuntime(30, at: Self.installDate.addingTimeInterval(2 * Self.day))
        app.moveDeviceDates(by: -Self.day)
        #expect(app.installDate == Self.installDate.addingTimeInterval(-Self.day))
        #expect(app.firstLaunchDate == Self.installDate.addingTimeInterval(60 - Self.day))
        #expect(app.launchHistory == [Self.installDate.addingTimeInterval(60 - Self.day), Self.installDate])
        #expect(app.lastPeriodicCheck == Self.installDate.addingTimeInterval(Self.day))
        #expect(app.extensionRuntimeUsed(on: Self.installDate.addingTimeInterval(Self.day)) == 0, "a new day's budget")
    }

    @Test("The first launch lifts the allowance; the history keeps the most recent launches in order")
    func launches() throws {
        var app = try AppRegistryTests.sampleApp()
        let count = InstalledApp.launchHistoryLimit + 8
        for index in (0..<count).reversed() {
            app.recordLaunch(at: Self.installDate.addingTimeInterval(Double(index) * 60))
        }
        #expect(app.firstLaunchDate == Self.installDate.addingTimeInterval(Double(count - 1) * 60))
        #expect(app.allowance.isLifted)
        #expect(app.launchHistory.count == InstalledApp.launchHistoryLimit)
        #expect(app.launchHistory == app.launchHistory.sorted())
        #expect(app.launchHistory.last == Self.installDate.addingTimeInterval(Double(count - 1) * 60))
    }

    @Test("Extension runtime adds up within a UTC day and starts again the next day")
    func dailyRuntime() throws {
        var app = try AppRegistryTests.sampleApp()
        let midnight = Date(
            timeIntervalSince1970: (Self.installDate.timeIntervalSince1970 / Self.day).rounded(.down) * Self.day)
        app.recordExtensionRuntime(100, at: midnight.addingTimeInterval(60))
        app.recordExtensionRuntime(50.5, at: midnight.addingTimeInterval(Self.day - 1))
        app.recordExtensionRuntime(-5, at: midnight.addingTimeInterval(3600))
        app.recordExtensionRuntime(.nan, at: midnight.addingTimeInterval(3600))
        #expect(app.extensionRuntimeUsed(on: midnight) == 150.5)
        #expect(app.extensionRuntimeUsed(on: midnight.addingTimeInterval(Self.day)) == 0)
        app.recordExtensionRuntime(7, at: midnight.addingTimeInterval(Self.day))
        #expect(app.extensionRuntimeUsed(on: midnight.addingTimeInterval(Self.day + 10)) == 7)
        #expect(app.extensionRuntimeUsed(on: midnight) == 0)
        app.resetExtensionRuntime()
        #expect(app.extensionRuntimeUsed(on: midnight.addingTimeInterval(Self.day)) == 0)
    }

    @Test("A runtime charge's day is the UTC calendar day Calendar names, on either side of every midnight from 1600 to 2400")
    func dayOfACharge() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        func calendarDay(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let first = calendar.date(from: DateComponents(year: 1600, month: 1, day: 1)) ?? .distantPast
        let last = calendar.date(from: DateComponents(year: 2400, month: 12, day: 31)) ?? .distantFuture
        var mismatches: [String] = []
        // Every 29th midnight walks through every day of the month and every month over the years,
        // leap days of 1600, 2000 and 2400 and the missing ones of 1700, 1800, 1900 and 2100 among them.
        var midnight = first
        while midnight <= last, mismatches.count < 5 {
            for instant in [midnight, midnight.addingTimeInterval(-0.001), midnight.addingTimeInterval(Self.day - 1)]
            where RuntimeUsage.dayKey(instant) != calendarDay(instant) {
                mismatches.append("\(instant.timeIntervalSince1970): \(RuntimeUsage.dayKey(instant)), not \(calendarDay(instant))")
            }
            midnight = midnight.addingTimeInterval(29 * Self.day)
        }
        for leapDay in ["1600-02-29", "2000-02-29", "2024-02-29", "2400-02-29"] {
            let date = calendar.date(from: DateComponents(
                year: Int(leapDay.prefix(4)), month: 2, day: 29, hour: 12)) ?? .distantPast
            #expect(RuntimeUsage.dayKey(date) == leapDay)
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // Dates no clock reaches still make a day, without trapping.
        #expect(!RuntimeUsage.dayKey(.distantFuture).isEmpty)
        #expect(!RuntimeUsage.dayKey(Date(timeIntervalSince1970: .infinity)).isEmpty)
        #expect(!RuntimeUsage.dayKey(Date(timeIntervalSince1970: -.greatestFiniteMagnitude)).isEmpty)
    }

    @Test("An update installs again but keeps the launches; a launched app stays unrestricted")
    func update() throws {
        var app = try AppRegistryTests.sampleApp()
        app.state = .launchable
        app.recordLaunch(at: Self.installDate.addingTimeInterval(60))
        var bundle = app.bundle
        bundle.app.version = "2"
        app.update(
            to: bundle, appExecutable: app.appExecutable, extensionExecutable: app.extensionExecutable,
            at: Self.installDate.addingTimeInterval(Self.day))
        #expect(app.version == "2")
        #expect(app.state == .installing)
        #expect(app.launchHistory.count == 1)
        #expect(app.allowance.isLifted)
        #expect(app.installDate == Self.installDate.addingTimeInterval(Self.day))
    }
}
