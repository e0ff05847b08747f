/*
Abstract:
Apple's `Logger`, used as Apple's documentation declares it.
*/

import OSLog
import Testing

extension Logger {
    /// A category as Apple's samples declare one.
    static let appleStyle = Logger(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "test")
}

@Suite("Apple's Logger, as Apple declares it")
struct AppleOSLogUsageTests {
    @Test("Every level and the privacy interpolations compile and run")
    func everyMethod() {
        let identifier = "wwdc2023-10108"
        let bytes = 4_096
        let logger = Logger.appleStyle
        let levels: [OSLogType] = [.debug, .info, .default, .error, .fault]
        #expect(Set(levels.map(\.rawValue)).count == 5)
        // Debug-level lines are left out unless BA_LOG_LEVEL=debug, so the test output stays quiet.
        logger.log(level: .debug, "Downloaded \(identifier, privacy: .public), \(bytes) bytes")
        logger.trace("trace \(identifier, privacy: .private)")
        logger.debug("debug \(identifier, privacy: .private(mask: .hash))")
        if Bool("false") == true {
            logger.log("default \(identifier, privacy: .sensitive)")
            logger.info("info \(identifier, privacy: .auto)")
            logger.notice("notice")
            logger.warning("warning")
            logger.error("error")
            logger.critical("critical")
            logger.fault("fault")
        }
    }
}
