/*
Abstract:
Apple's FilePath from the System module: a location in the file system, written as a string or a literal.
*/

/// A location in the file system, as the System module's `FilePath` on Apple platforms.
///
/// ```swift
/// let data = try AssetPackManager.shared.contents(at: "Videos/Introduction.m4v")
/// let slides = FilePath("Slides").appending("\(session.id).pdf")
/// ```
/// As Apple's, a path is normalised when it is made: repeated separators become one and a trailing
/// separator is dropped, so `"Videos//Intro/"` and `"Videos/Intro"` are the same path.
/// - Note: Linux toolchains ship no System module; this one has the part of Apple's API that code
///   using Background Assets reaches for: the syntactic operations on Unix paths, without Windows
///   roots or the platform-string initialisers.
public struct FilePath: Sendable, Hashable {
    /// The normalised path.
    var storage: String

    /// Creates an empty path.
    public init() {
        storage = ""
    }

    /// Creates a path from a string.
    /// - Parameter string: The path; repeated and trailing separators are removed.
    public init(_ string: String) {
        storage = Self.normalized(string)
    }

    /// The path as a string.
    public var string: String { storage }

    /// Whether the path is empty.
    public var isEmpty: Bool { storage.isEmpty }

    /// Whether the path starts at the root (`/`).
    public var isAbsolute: Bool { storage.hasPrefix("/") }

    /// Whether the path is relative to a folder rather than to the root.
    public var isRelative: Bool { !isAbsolute }

    /// The root, `/`, of an absolute path; `nil` for a relative one.
    public var root: FilePath.Root? {
        isAbsolute ? Root() : nil
    }

    /// Repeated separators become one and a trailing one is dropped; the root `/` stays.
    private static func normalized(_ string: String) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        var previousWasSeparator = false
        for character in string {
            if character == "/" {
                if previousWasSeparator { continue }
                previousWasSeparator = true
            } else {
                previousWasSeparator = false
            }
            result.append(character)
        }
        if result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }
}

extension FilePath {
    /// The root of an absolute path; on Unix, always `/`.
    public struct Root: Sendable, Hashable, CustomStringConvertible {
        /// The root as a string: `/`.
        public var string: String { "/" }

        /// The root as a string: `/`.
        public var description: String { string }
    }
}

extension FilePath: ExpressibleByStringLiteral {
    /// Creates a path from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension FilePath: CustomStringConvertible, CustomDebugStringConvertible {
    /// The path as a string.
    public var description: String { storage }

    /// The path as a quoted string literal.
    public var debugDescription: String { storage.debugDescription }
}

extension FilePath: Codable {
    /// Reads a path written by ``encode(to:)``: a single string.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the path as a single string.
    /// - Note: swift-system encodes a path's bytes instead; a path encoded here is the JSON string it
    ///   reads as.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storage)
    }
}

extension String {
    /// Creates a string from a file path.
    /// - Parameter path: The path.
    public init(decoding path: FilePath) {
        self = path.string
    }
}
