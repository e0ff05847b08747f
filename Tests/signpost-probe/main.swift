/*
Abstract:
A process of the device that logs and measures its work as Apple's documentation shows, for OSLogTests.
*/

import os.log

// Written the way Apple's documentation writes it, through `import os.log`: a log object, a logger
// of it, os_log with a format string, and a signposter's interval and event. OSLogTests runs it in
// a device root and reads where each line landed.
let log = OSLog(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "probe")
let logger = Logger(log)
let signposter = OSSignposter(logHandle: log)

let manifestName = "manifest.json"
let sessionCount = 12
os_log("Loading %{public}@ with %d sessions", log: log, type: .info, manifestName, sessionCount)

let signpostID = signposter.makeSignpostID()
let state = signposter.beginInterval("Load manifest", id: signpostID, "\(manifestName, privacy: .public)")
signposter.emitEvent("Manifest parsed", id: signpostID, "\(sessionCount) sessions")
signposter.endInterval("Load manifest", state)

let totalMinutes = signposter.withIntervalSignpost("Sum durations") {
    (1...sessionCount).reduce(0) { $0 + $1 * 5 }
}
logger.notice("The sessions last \(totalMinutes) minutes in all.")

// Code older than OSSignposter writes the same intervals with os_signpost.
os_signpost(.begin, log: log, name: "Refresh panel")
os_signpost(.end, log: log, name: "Refresh panel", "%d rows", sessionCount)
