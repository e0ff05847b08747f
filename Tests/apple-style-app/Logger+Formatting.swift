/*
Abstract:
Log messages with Apple's interpolation options: formats, alignment, privacy, and log objects.
*/

// Written from Apple's documentation of `Logger`, `OSLogIntegerFormatting`, `OSLogFloatFormatting`,
// `OSLogBoolFormat` and `OSLogStringAlignment`; compiled unchanged in Swift 6 and Swift 5 language
// modes, with only `import OSLog`. Edits from Apple's platforms: none.
import OSLog

extension Logger {
    static let transfers = Logger(subsystem: "com.example.apple-style", category: "transfers")
    static let network = Logger(OSLog(subsystem: "com.example.apple-style", category: "network"))
    static let quiet = Logger.disabled
}

enum TransferLog {
    static func report(identifier: String, bytes: Int, seconds: Double, essential: Bool, flags: UInt8, started: Date) {
        let rate = seconds > 0 ? Double(bytes) / seconds / 1_048_576 : 0
        Logger.transfers.info("""
            \(identifier, align: .left(columns: 16), privacy: .public)\
            \(bytes, format: .decimal, align: .right(columns: 12)) bytes \
            \(rate, format: .fixed(precision: 1)) MiB/s \
            essential \(essential, format: .answer) \
            flags \(flags, format: .hex(includePrefix: true, minDigits: 2)) \
            since \(started, privacy: .private(mask: .hash))
            """)
        if Logger.network.isEnabled(type: .debug) {
            Logger.network.debug("Ratio \(seconds, format: .exponential(precision: 2)) \(String(describing: TransferLog.self))")
        }
        Logger.quiet.fault("Never written: \(identifier)")
    }
}
