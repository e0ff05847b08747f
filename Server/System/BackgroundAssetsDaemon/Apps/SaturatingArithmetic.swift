/*
Abstract:
Sums of sizes that came from outside the service, which stop at the largest value instead of trapping.
*/

extension Int64 {
    /// The sum, or `Int64.max` (or `.min`) where it would overflow.
    ///
    /// Declared sizes come from an extension or an Info.plist; a hostile one may declare `Int64.max`
    /// twice, and a progress bar that shows "full" is a better answer than a service that traps.
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

extension Sequence<Int64> {
    /// The saturating sum of the elements.
    func saturatedSum() -> Int64 {
        reduce(0) { $0.addingSaturated($1) }
    }
}
