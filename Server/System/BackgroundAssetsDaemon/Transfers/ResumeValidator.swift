/*
Abstract:
The validator a partial download is resumed with, so bytes of two versions of a file are never spliced.
*/

import HTTPCore

/// What identifies the version of a file whose first bytes are already on disk.
///
/// A resumed request sends it in `If-Range`: the server answers 206 only if the file is still that
/// version, and the whole new file otherwise. Weak entity tags cannot be used for this (RFC 9110
/// section 13.1.5), so a server with only a weak tag and no date gives a download that cannot resume.
enum ResumeValidator: Sendable, Equatable, Codable {
    /// A strong entity tag, stored as sent, quotes included.
    case entityTag(String)
    /// A `Last-Modified` date, stored as sent.
    case lastModified(String)

    /// The validator of a response: its strong ETag, else its Last-Modified date, else `nil`.
    init?(of head: HTTPResponseHead) {
        if let tag = head["ETag"], tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 {
            self = .entityTag(tag)
        } else if let date = head["Last-Modified"], HTTPDate.parse(date) != nil {
            self = .lastModified(date)
        } else {
            return nil
        }
    }

    /// The value to send in `If-Range`.
    var ifRangeValue: String {
        switch self {
        case let .entityTag(tag): tag
        case let .lastModified(date): date
        }
    }
}
