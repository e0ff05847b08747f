/*
Abstract:
Unit tests for conditional requests, entity tags and HTTP dates.
*/

@testable import AssetServer
import Foundation
import HTTPCore
import Testing

struct PreconditionsUnitTests {
    private let validators = Validators(entityTag: EntityTag(opaque: "abc"), lastModified: 784_111_777)
    private let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"

    private func evaluate(_ fields: [(String, String)]) -> PreconditionOutcome {
        Preconditions.evaluate(HTTPHeaders(fields.map { (name: $0.0, value: $0.1) }), validators: validators)
    }

    @Test("A request without conditions proceeds with its range")
    func unconditional() {
        #expect(evaluate([]) == .proceed(rangeAllowed: true))
    }

    @Test("If-None-Match with the current tag, a list containing it, a weak form or * answers 304")
    func ifNoneMatchHits() {
        #expect(evaluate([("If-None-Match", "\"abc\"")]) == .notModified)
        #expect(evaluate([("If-None-Match", "\"x\", \"abc\"")]) == .notModified)
        #expect(evaluate([("If-None-Match", "W/\"abc\"")]) == .notModified)
        #expect(evaluate([("If-None-Match", "*")]) == .notModified)
        #expect(evaluate([("If-None-Match", "\"x\""), ("If-None-Match", "\"abc\"")]) == .notModified)
    }

    @Test("If-None-Match with other tags proceeds")
    func ifNoneMatchMisses() {
        #expect(evaluate([("If-None-Match", "\"abcd\"")]) == .proceed(rangeAllowed: true))
        #expect(evaluate([("If-None-Match", "abc")]) == .proceed(rangeAllowed: true))
    }

    @Test("If-None-Match is evaluated before Range and overrides If-Modified-Since")
    func ifNoneMatchPrecedence() {
        #expect(evaluate([("If-None-Match", "\"abc\""), ("Range", "bytes=0-1")]) == .notModified)
        #expect(evaluate([("If-None-Match", "\"other\""), ("If-Modified-Since", lastModified)])
            == .proceed(rangeAllowed: true))
    }

    @Test("If-Modified-Since answers 304 unless the file changed after the date")
    func ifModifiedSince() {
        #expect(evaluate([("If-Modified-Since", lastModified)]) == .notModified)
        #expect(evaluate([("If-Modified-Since", "Sun, 06 Nov 1994 08:49:36 GMT")]) == .proceed(rangeAllowed: true))
        #expect(evaluate([("If-Modified-Since", "not a date")]) == .proceed(rangeAllowed: true))
    }

    @Test("If-Match and If-Unmodified-Since failures answer 412")
    func preconditionFailed() {
        #expect(evaluate([("If-Match", "\"other\"")]) == .preconditionFailed)
        #expect(evaluate([("If-Match", "W/\"abc\"")]) == .preconditionFailed)
        #expect(evaluate([("If-Match", "\"abc\"")]) == .proceed(rangeAllowed: true))
        #expect(evaluate([("If-Unmodified-Since", "Sun, 06 Nov 1994 08:49:36 GMT")]) == .preconditionFailed)
    }

    @Test("If-Range honours the range only for the strong current tag or the exact date")
    func ifRange() {
        #expect(evaluate([("If-Range", "\"abc\"")]) == .proceed(rangeAllowed: true))
        #expect(evaluate([("If-Range", "\"old\"")]) == .proceed(rangeAllowed: false))
        #expect(evaluate([("If-Range", "W/\"abc\"")]) == .proceed(rangeAllowed: false))
        #expect(evaluate([("If-Range", lastModified)]) == .proceed(rangeAllowed: true))
        #expect(evaluate([("If-Range", "Sun, 06 Nov 1994 08:49:38 GMT")]) == .proceed(rangeAllowed: false))
        #expect(evaluate([("If-Range", "garbage")]) == .proceed(rangeAllowed: false))
    }

    @Test("HTTP dates round-trip and all three historical forms parse")
    func httpDates() {
        #expect(HTTPDate.format(784_111_777) == lastModified)
        #expect(HTTPDate.parse(lastModified) == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(4_102_444_799) == "Thu, 31 Dec 2099 23:59:59 GMT")
        // Every second of a day and every day of a leap year formats as Foundation's formatter does.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for seconds in stride(from: Int64(1_709_164_800), to: 1_709_164_800 + 366 * 86_400, by: 86_400 + 3_607) {
            #expect(HTTPDate.format(seconds) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
        }
    }

    @Test("A date cache answers the current second's text and follows the clock")
    func dateCache() {
        var cache = HTTPDate.Cache()
        #expect(cache.format(784_111_777) == lastModified)
        #expect(cache.format(784_111_777) == lastModified)
        #expect(cache.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.parse(cache.now()).map { abs($0 - Int64(Date().timeIntervalSince1970)) <= 1 } == true)
    }

    @Test("Entity tags parse strictly and compare strongly or weakly")
    func entityTags() {
        #expect(EntityTag(parsing: "\"a\"") == EntityTag(opaque: "a"))
        #expect(EntityTag(parsing: "W/\"a\"") == EntityTag(opaque: "a", isWeak: true))
        #expect(EntityTag(parsing: "a") == nil)
        #expect(EntityTag(parsing: "\"a") == nil)
        #expect(EntityTag(opaque: "a").matchesWeakly(EntityTag(opaque: "a", isWeak: true)))
        #expect(!EntityTag(opaque: "a").matchesStrongly(EntityTag(opaque: "a", isWeak: true)))
        #expect(EntityTag(opaque: "a-1").headerValue == "\"a-1\"")
    }
}
