/*
Abstract:
Tests of the interpolation options: integer, floating-point and Boolean formats and column alignment, as Apple's log renders them.
*/

@testable import OSLog
import Testing

@Suite("OSLog formatting")
struct OSLogFormattingTests {
    @Test("Integers are written in decimal, hexadecimal or octal with printf's sign, digits and Apple's prefixes")
    func integerFormats() {
        #expect(text("\(42)") == "42")
        #expect(text("\(42, format: .hex)") == "2a")
        #expect(text("\(42, format: .hex(includePrefix: true, uppercase: true))") == "0x2A")
        #expect(text("\(42, format: .hex(includePrefix: true, minDigits: 4))") == "0x002a")
        #expect(text("\(UInt(8), format: .octal(includePrefix: true))") == "0o10")
        #expect(text("\(7, format: .decimal(explicitPositiveSign: true))") == "+7")
        #expect(text("\(-7, format: .decimal(explicitPositiveSign: true))") == "-7")
        #expect(text("\(-7, format: .decimal(minDigits: 3))") == "-007")
        #expect(text("\(UInt8(255), format: .hex(explicitPositiveSign: true))") == "+ff")
        #expect(text("\(Int8(-1), format: .hex)") == "ff")
        #expect(text("\(Int.min)") == "-9223372036854775808")
    }

    @Test("Floating-point numbers are printf's %f by default, and %e, %g, %a on request")
    func floatFormats() {
        #expect(text("\(0.5)") == "0.500000")
        #expect(text("\(Float(2.25))") == "2.250000")
        #expect(text("\(3.14159, format: .fixed(precision: 2))") == "3.14")
        #expect(text("\(1234.5, format: .exponential)") == "1.234500e+03")
        #expect(text("\(1234.5, format: .exponential(precision: 1, uppercase: true))") == "1.2E+03")
        #expect(text("\(0.0001, format: .hybrid)") == "0.0001")
        #expect(text("\(1.5, format: .hex)") == "0x1.8p+0")
        #expect(text("\(1.0, format: .fixed(explicitPositiveSign: true))") == "+1.000000")
        #expect(text("\(Double.infinity, format: .fixed(uppercase: true))") == "INF")
    }

    @Test("Alignment pads to a column on either side and never truncates; a prefix stands outside it")
    func alignment() {
        #expect(text("[\(7, align: .right(columns: 4))]") == "[   7]")
        #expect(text("[\(7, align: .left(columns: 4))]") == "[7   ]")
        #expect(text("[\("ab", align: .left(columns: 4))]") == "[ab  ]")
        #expect(text("[\("abcdef", align: .right(columns: 3))]") == "[abcdef]")
        #expect(text("[\(3.14159, format: .fixed(precision: 1), align: .right(columns: 6))]") == "[   3.1]")
        #expect(text("[\(UInt(255), format: .hex(includePrefix: true), align: .right(columns: 4))]") == "[0x  ff]")
        #expect(text("[\(Logger.self, align: .left(columns: 8))]") == "[Logger  ]")
    }

    @Test("Booleans are true/false or YES/NO, and a formatted value keeps its privacy")
    func booleansAndPrivacy() {
        #expect(text("\(true) \(false, format: .answer) \(true, format: .answer)") == "true NO YES")
        #expect(text("\(42, format: .hex, privacy: .private)") == "<private>")
        #expect(text("\(0.5, format: .fixed(precision: 1), privacy: .public)") == "0.5")
        let optional: Int? = nil
        #expect(text("\(optional)") == "nil")
    }

    @Test("A log object names a logger's subsystem and category; the disabled log and logger write nothing")
    func logObjects() {
        let logger = Logger(OSLog(subsystem: "com.example.MyApp", category: "network"))
        #expect(logger.subsystem == "com.example.MyApp" && logger.category == "network")
        #expect(logger.isEnabled(type: .error) && logger.isEnabled(type: .fault))
        #expect(!Logger.disabled.isEnabled(type: .fault))
        #expect(!OSLog.disabled.isEnabled(type: .error))
        #expect(OSLog.default.isEnabled(type: .default))
        let debugShown = ProcessInfo.processInfo.environment["BA_LOG_LEVEL"] == "debug"
        #expect(logger.isEnabled(type: .debug) == debugShown)
        Logger.disabled.fault("Never written.")
    }

    /// The text a message would be logged with, private data redacted.
    private func text(_ message: OSLogMessage) -> String {
        message.text
    }
}
