/*
Abstract:
Unit tests of settings --json and clock --json: one JSON object with the fields their text shows.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Print settings and the clock as JSON")
struct JSONOutputTests {
    /// The object a command printed, or a failed expectation naming the text.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("settings --json has every row of the table, each app's switch and answer, and the Apple hosting server")
    func settings() throws {
        var settings = DeviceSettings()
        settings.lowPowerMode = true
        settings.backgroundAppRefreshByApp = ["com.example.a": false]
        settings.networkReachable = false
        settings.notificationsByApp = ["com.example.b": false]
        settings.appleHostingServer = "http://127.0.0.1:8080"
        let object = try Self.object(try SettingsFormatter(settings: settings).json())
        #expect(object["lowPowerMode"] as? Bool == true)
        #expect(object["backgroundAppRefresh"] as? Bool == true)
        #expect(object["backgroundAppRefreshByApp"] as? [String: Bool] == ["com.example.a": false])
        #expect(object["inAppContent"] as? Bool == true)
        #expect(object["externalPower"] as? Bool == true)
        #expect(object["networkReachable"] as? Bool == false)
        #expect(object["notifications"] as? Bool == true, "the table's allow, not a missing key")
        #expect(object["notificationsByApp"] as? [String: Bool] == ["com.example.b": false])
        #expect(object["appleHostingServer"] as? String == "http://127.0.0.1:8080")
    }

    @Test("settings --json of a new device says allow for notifications and leaves out the unset server")
    func defaultSettings() throws {
        let object = try Self.object(try SettingsFormatter(settings: DeviceSettings()).json())
        #expect(object["notifications"] as? Bool == true)
        #expect(object["notificationsByApp"] as? [String: Bool] == [:])
        #expect(object["appleHostingServer"] == nil, "as the table shows no row for it")
    }

    @Test("clock --json has the device's time, real time, the time scale and the seconds ahead")
    func clock() throws {
        let now = Date(timeIntervalSince1970: 1_795_529_222)
        let text = DeviceClockText(clock: DeviceClockStatus(
            deviceTime: now.addingTimeInterval(93_600.4), realTime: now, timeScale: 3600))
        let object = try Self.object(try text.json())
        #expect(object["deviceTime"] as? String == "2026-11-25T16:07:02Z")
        #expect(object["realTime"] as? String == "2026-11-24T14:07:02Z")
        #expect(object["timeScale"] as? Double == 3600)
        #expect(object["secondsAhead"] as? Int == 93_600)
    }

    @Test("settings and clock read --json; clock refuses it with --real-time")
    func parsesJSON() throws {
        #expect(try SettingsCommand.parsing(["--json"]).json)
        #expect(try SettingsCommand.parsing(["--json", "--low-power", "on"]).change.lowPowerMode == true)
        #expect(try ClockCommand.parsing(["--json"]).json)
        #expect { try ClockCommand.parsing(["--json", "--real-time"]) } throws: { error in
            (error as? DebugToolError)?.message == "--real-time and --json do not go together; choose one."
        }
    }
}
