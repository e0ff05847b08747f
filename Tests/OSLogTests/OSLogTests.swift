/*
Abstract:
Tests of the OSLog module: Apple's Logger methods, levels, and privacy redaction.
*/

@testable import OSLog
import SystemLogging
import Testing

@Suite("OSLog")
struct OSLogTests {
    @Test("Privacy options show public values and redact private ones unless private data is enabled")
    func privacyRendering() {
        #expect(OSLogPrivacy.public.render("secret", revealingPrivateData: false) == "secret")
        #expect(OSLogPrivacy.auto.render("secret", revealingPrivateData: false) == "secret")
        #expect(OSLogPrivacy.private.render("secret", revealingPrivateData: false) == "<private>")
        #expect(OSLogPrivacy.sensitive.render("secret", revealingPrivateData: false) == "<private>")
        #expect(OSLogPrivacy.private.render("secret", revealingPrivateData: true) == "secret")
    }

    @Test("A hash mask gives the same stand-in for the same value, and another for another value")
    func hashMask() {
        let privacy = OSLogPrivacy.private(mask: .hash)
        let first = privacy.render("user@example.com", revealingPrivateData: false)
        #expect(first.hasPrefix("<mask.hash: '"))
        #expect(first == privacy.render("user@example.com", revealingPrivateData: false))
        #expect(first != privacy.render("other@example.com", revealingPrivateData: false))
        #expect(!first.contains("example"))
    }

    @Test("A message interpolates values with their privacy, as Apple's OSLogMessage does")
    func messageInterpolation() {
        let identifier = "wwdc2023-10108"
        let password = "hunter2"
        let count = 3
        let message: OSLogMessage =
            "Downloaded \(identifier, privacy: .public) (\(count) tries) with \(password, privacy: .private)"
        let shown = OSLogPrivacy.revealsPrivateData ? password : "<private>"
        #expect(message.text == "Downloaded wwdc2023-10108 (3 tries) with \(shown)")
        let literal: OSLogMessage = "No manifest has been downloaded yet."
        #expect(literal.text == "No manifest has been downloaded yet.")
    }

    @Test("Apple's levels keep their raw values and map onto the device log's levels")
    func levels() {
        #expect(OSLogType.default.rawValue == 0 && OSLogType.info.rawValue == 1 && OSLogType.debug.rawValue == 2)
        #expect(OSLogType.error.rawValue == 0x10 && OSLogType.fault.rawValue == 0x11)
        #expect(Logger.deviceLogLevel(for: .debug) == .debug)
        #expect(Logger.deviceLogLevel(for: .info) == .info)
        #expect(Logger.deviceLogLevel(for: .default) == .notice)
        #expect(Logger.deviceLogLevel(for: .error) == .error)
        #expect(Logger.deviceLogLevel(for: .fault) == .fault)
        #expect(Logger.deviceLogLevel(for: OSLogType(rawValue: 0x7f)) == .notice)
    }

    @Test("A logger keeps its subsystem and category; every Apple method accepts a message")
    func loggerMethods() {
        let logger = Logger(subsystem: "com.example.apple-samplecode.WWDC-Sessions", category: "test")
        #expect(logger.subsystem == "com.example.apple-samplecode.WWDC-Sessions")
        #expect(logger.category == "test")
        // Written below the default level, so the test output stays quiet.
        logger.trace("trace \(1)")
        logger.debug("debug \(2, privacy: .public)")
        #expect(Logger().category == "default")
    }
}
