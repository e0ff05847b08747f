/*
Abstract:
Tests of os_log's format strings: printf's conversions, Apple's privacy and value-type decorations, and arguments that do not fit.
*/

import Foundation
@testable import OSLog
import Testing

@Suite("os_log format strings")
struct OSLogFormatStringTests {
    func render(_ format: String, _ arguments: any CVarArg..., revealing: Bool = false) -> String {
        OSLogFormatString(format).rendering(arguments, revealingPrivateData: revealing)
    }

    @Test("A constant string is written as it is, and %% as one percent sign")
    func constantStrings() {
        #expect(render("No manifest has been downloaded yet.") == "No manifest has been downloaded yet.")
        #expect(render("100%% done") == "100% done")
        #expect(render("ends with %") == "ends with %")
    }

    @Test("Integers, floating-point numbers and strings take printf's conversions, flags, widths and precisions")
    func conversions() {
        #expect(render("%d sessions, %ld bytes", 12, 4_096) == "12 sessions, 4096 bytes")
        #expect(render("%5d|%-5d|%05d", 42, 42, 42) == "   42|42   |00042")
        #expect(render("%x %X %#x %o %u", 255, 255, 255, 8, UInt(7)) == "ff FF 0xff 10 7")
        #expect(render("%.2f %e", 0.5, 1_500.0) == "0.50 1.500000e+03")
        #expect(render("%@ and %s", "wwdc2023-10108", "manifest.json") == "wwdc2023-10108 and manifest.json")
        #expect(render("[%8s] [%-8s] [%.3s]", "abc", "abc", "abcdef") == "[     abc] [abc     ] [abc]")
        #expect(render("%*d", 4, 7) == "   7")
        #expect(render("%c", 65) == "A")
        // Wider than an Int32: written whole, as %lld would, not cut to 32 bits.
        #expect(render("%d", 5_000_000_000) == "5000000000")
    }

    @Test("{private} values are redacted unless private data is shown; {public} and undecorated ones are shown")
    func privacy() {
        #expect(render("user %{private}@ on %{public}s", "ada@example.com", "wifi") == "user <private> on wifi")
        #expect(render("user %{private}@", "ada@example.com", revealing: true) == "user ada@example.com")
        #expect(render("%{sensitive}d tries", 3) == "<private> tries")
        #expect(render("%@", "shown") == "shown")
    }

    @Test("Apple's value types: {bool} and {BOOL} as words, {errno} as the C library's message")
    func valueTypes() {
        #expect(render("%{bool}d %{BOOL}d", 1, 0) == "true NO")
        #expect(render("%{public, bool}d", 0) == "false")
        #expect(render("%{errno}d", 2).hasPrefix("[2: No such file"))
    }

    @Test("A missing argument or one of the wrong kind is named in the message, never read from memory")
    func argumentsThatDoNotFit() {
        #expect(render("%d of %d", 1) == "1 of <missing argument for %d>")
        #expect(render("%d sessions", "twelve") == "<%d given String twelve> sessions")
        #expect(render("%f", 3) == "<%f given Int 3>")
        #expect(render("%{bool}d", "yes") == "<%{bool}d given String yes>")
        #expect(render("extra arguments are left out", 1, 2) == "extra arguments are left out")
    }
}
