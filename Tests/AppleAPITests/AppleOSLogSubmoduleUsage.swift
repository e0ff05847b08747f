/*
Abstract:
`import os.log` and `import os.signpost`, the submodule imports of Apple's older samples.
*/

// Older Apple code imports the os module's submodules; both names resolve here too, and bring the
// same declarations as `import os`.
import os.log
import os.signpost
import Testing

@Suite("os.log and os.signpost, as older Apple code imports them")
struct AppleOSLogSubmoduleUsageTests {
    @Test("The submodule imports bring OSLog, os_log, OSLogType, the signposter and os_signpost")
    func submoduleImports() {
        let log = OSLog(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "legacy")
        os_log("Legacy code logs through %@", log: log, type: .debug, "os.log")
        let type: OSLogType = .debug
        #expect(log.isEnabled(type: .error) && type.rawValue == 2)
        let signposter = OSSignposter(logHandle: log)
        #expect(signposter.isEnabled && log.signpostsEnabled)
        // The way code before OSSignposter measured an interval; a disabled log keeps the test quiet.
        os_signpost(.begin, log: .disabled, name: "Refresh panel")
        os_signpost(.end, log: .disabled, name: "Refresh panel", "%d rows", 3)
        #expect(OSSignpostType.begin.rawValue == 1 && !OSLog.disabled.signpostsEnabled)
    }
}
