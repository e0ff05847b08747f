/*
Abstract:
Conditional requests: If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since and If-Range, in RFC 9110 order.
*/

import HTTPCore

/// The validators of one file: what a client can send back to make a request conditional.
struct Validators: Sendable, Equatable {
    /// The strong entity tag.
    var entityTag: EntityTag
    /// The modification time in whole seconds since 1970, as sent in `Last-Modified`.
    var lastModified: Int64
}

/// The outcome of evaluating a request's preconditions against a file.
enum PreconditionOutcome: Sendable, Equatable {
    /// Serve the file; `rangeAllowed` is `false` when If-Range says the client's partial copy is stale.
    case proceed(rangeAllowed: Bool)
    /// Answer 304 Not Modified.
    case notModified
    /// Answer 412 Precondition Failed.
    case preconditionFailed
}

/// Evaluates conditional headers in the order of RFC 9110 section 13.2.2.
enum Preconditions {
    /// Decides how to answer a GET or HEAD for a file with `validators`.
    ///
    /// If-None-Match is evaluated before Range, and If-Modified-Since only when If-None-Match is absent.
    static func evaluate(_ headers: HTTPHeaders, validators: Validators) -> PreconditionOutcome {
        if let ifMatch = headers.combinedValue(for: "if-match") {
            guard EntityTagCondition(parsing: ifMatch).matches(validators.entityTag, strongly: true) else {
                return .preconditionFailed
            }
        } else if let text = headers.singleValue(for: "if-unmodified-since"), let date = HTTPDate.parse(text) {
            guard validators.lastModified <= date else { return .preconditionFailed }
        }
        if let ifNoneMatch = headers.combinedValue(for: "if-none-match") {
            if EntityTagCondition(parsing: ifNoneMatch).matches(validators.entityTag, strongly: false) {
                return .notModified
            }
        } else if let text = headers.singleValue(for: "if-modified-since"), let date = HTTPDate.parse(text) {
            if validators.lastModified <= date { return .notModified }
        }
        return .proceed(rangeAllowed: ifRangeAllowsRange(headers.singleValue(for: "if-range"), validators: validators))
    }

    /// Whether an If-Range value (or its absence) lets the Range header apply.
    ///
    /// An entity tag must match strongly (a weak tag never does); a date must equal `Last-Modified` exactly.
    static func ifRangeAllowsRange(_ value: String?, validators: Validators) -> Bool {
        guard let value else { return true }
        let trimmed = value.trimmingWhitespace()
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/") {
            guard let tag = EntityTag(parsing: trimmed) else { return false }
            return tag.matchesStrongly(validators.entityTag)
        }
        guard let date = HTTPDate.parse(String(trimmed)) else { return false }
        return date == validators.lastModified
    }
}
