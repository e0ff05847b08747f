/*
Abstract:
Unit tests for Range header parsing and for choosing 200, 206 or 416 for a file of a given size.
*/

@testable import AssetServer
import Testing

struct RangeUnitTests {
    private func evaluate(_ header: String, size: Int64) -> ByteRangeRequest.Evaluation? {
        ByteRangeRequest(parsing: header)?.evaluate(size: size)
    }

    @Test("A bounded range selects exactly those bytes")
    func boundedRange() {
        #expect(evaluate("bytes=0-99", size: 1000) == .partial(ByteRange(first: 0, last: 99)))
        #expect(evaluate("bytes=500-500", size: 1000) == .partial(ByteRange(first: 500, last: 500)))
    }

    @Test("A range past the end is clamped to the last byte")
    func clampedRange() {
        #expect(evaluate("bytes=900-5000", size: 1000) == .partial(ByteRange(first: 900, last: 999)))
    }

    @Test("An open range runs to the end of the file")
    func openRange() {
        #expect(evaluate("bytes=10-", size: 1000) == .partial(ByteRange(first: 10, last: 999)))
        #expect(evaluate("bytes=0-", size: 1) == .partial(ByteRange(first: 0, last: 0)))
    }

    @Test("A suffix range selects the last bytes, or the whole file when it is longer")
    func suffixRange() {
        #expect(evaluate("bytes=-10", size: 1000) == .partial(ByteRange(first: 990, last: 999)))
        #expect(evaluate("bytes=-5000", size: 1000) == .partial(ByteRange(first: 0, last: 999)))
    }

    @Test("Ranges starting at or after the end are unsatisfiable")
    func unsatisfiable() {
        #expect(evaluate("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(evaluate("bytes=1000-2000", size: 1000) == .unsatisfiable)
        #expect(evaluate("bytes=-0", size: 1000) == .unsatisfiable)
    }

    @Test("Every range of an empty file is unsatisfiable")
    func emptyFile() {
        #expect(evaluate("bytes=0-", size: 0) == .unsatisfiable)
        #expect(evaluate("bytes=-1", size: 0) == .unsatisfiable)
    }

    @Test("Syntactically invalid ranges are ignored", arguments: [
        "bytes=5-1", "bytes=abc", "bytes=", "bytes=-", "bytes=1-2-3", "items=0-1", "bytes 0-1", "bytes=0x10-",
        "bytes=+1-2", "", "bytes=,",
    ])
    func invalidRanges(header: String) {
        #expect(ByteRangeRequest(parsing: header) == nil)
    }

    @Test("The unit is case-insensitive and whitespace around members is allowed")
    func lenientSyntax() {
        #expect(evaluate("Bytes=0-1", size: 10) == .partial(ByteRange(first: 0, last: 1)))
        #expect(evaluate("bytes= 2-3 ", size: 10) == .partial(ByteRange(first: 2, last: 3)))
        #expect(evaluate("bytes=,4-5", size: 10) == .partial(ByteRange(first: 4, last: 5)))
    }

    @Test("Several ranges get the whole file, unless none of them is satisfiable")
    func multipleRanges() {
        #expect(evaluate("bytes=0-1,5-9", size: 100) == .full)
        #expect(evaluate("bytes=500-600, 0-1", size: 100) == .full)
        #expect(evaluate("bytes=500-600,700-", size: 100) == .unsatisfiable)
    }

    @Test("Offsets beyond 4 GiB keep their full 64-bit value")
    func largeOffsets() {
        let size: Int64 = 6 * 1024 * 1024 * 1024
        let first: Int64 = 5 * 1024 * 1024 * 1024 + 7
        #expect(evaluate("bytes=\(first)-", size: size) == .partial(ByteRange(first: first, last: size - 1)))
        #expect(evaluate("bytes=-\(Int64(1) << 32)", size: size)
            == .partial(ByteRange(first: size - (Int64(1) << 32), last: size - 1)))
    }

    @Test("Numbers too large for 64 bits saturate instead of wrapping")
    func hugeNumbers() {
        #expect(evaluate("bytes=0-99999999999999999999999", size: 10) == .partial(ByteRange(first: 0, last: 9)))
        #expect(evaluate("bytes=99999999999999999999999-", size: 10) == .unsatisfiable)
        #expect(evaluate("bytes=-99999999999999999999999", size: 10) == .partial(ByteRange(first: 0, last: 9)))
    }
}
