/*
Abstract:
Finds the known name a mistyped one most likely meant, for "did you mean" in error messages.
*/

/// The nearest of a set of names to a mistyped one, by edit distance ignoring case.
enum NearestName {
    /// The known name closest to `name`, or `nil` when none is close enough to be a typo of it.
    /// - Parameters:
    ///   - name: The name as given, such as `assetPackId`.
    ///   - known: The names that are accepted.
    /// - Returns: The suggestion, such as `assetPackID`.
    static func suggestion(for name: String, among known: [String]) -> String? {
        let given = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(given, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        // A third of the name's length, at least 2: "platform" finds "platforms", "foo" finds nothing.
        guard let best, best.distance <= max(2, given.count / 3) else { return nil }
        return best.name
    }

    /// The Levenshtein distance: the fewest insertions, deletions and substitutions from one to the other.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
