/*
Abstract:
One component of a file path (a file or folder name, `.` or `..`), with its stem and extension.
*/

extension FilePath {
    /// One non-root component of a path: a name, `.` or `..`; never empty, never containing `/`.
    ///
    /// ```swift
    /// let file: FilePath.Component = "Introduction.m4v"
    /// file.stem        // "Introduction"
    /// file.extension   // "m4v"
    /// ```
    public struct Component: Sendable, Hashable {
        /// What a component is.
        public enum Kind: Sendable, Hashable {
            /// `.`
            case currentDirectory
            /// `..`
            case parentDirectory
            /// A file or folder name.
            case regular
        }

        /// The component as a string.
        public let string: String

        /// Creates a component from a string.
        /// - Parameter string: The name; `nil` when it is empty or contains `/`.
        public init?(_ string: String) {
            guard !string.isEmpty, !string.contains("/") else { return nil }
            self.string = string
        }

        /// Whether this is `.`, `..` or a name.
        public var kind: Kind {
            switch string {
            case ".": .currentDirectory
            case "..": .parentDirectory
            default: .regular
            }
        }

        /// The name without its extension: `Introduction` of `Introduction.m4v`; the whole name when it has none.
        public var stem: String {
            guard let dot = extensionDot else { return string }
            return String(string[..<dot])
        }

        /// The extension, after the last dot: `m4v` of `Introduction.m4v`; `nil` for a name with no
        /// extension, for a name that only starts with a dot (`.profile`), and for `.` and `..`.
        public var `extension`: String? {
            guard let dot = extensionDot else { return nil }
            return String(string[string.index(after: dot)...])
        }

        /// The dot before the extension, as swift-system finds it.
        private var extensionDot: String.Index? {
            guard kind == .regular, let dot = string.lastIndex(of: "."), dot != string.startIndex else { return nil }
            return dot
        }
    }
}

extension FilePath.Component: ExpressibleByStringLiteral, CustomStringConvertible, CustomDebugStringConvertible {
    /// Creates a component from a string literal.
    /// - Note: Apple's traps on an empty literal or one that contains `/`; here such a literal makes
    ///   the component `.`, so a literal cannot stop the process.
    public init(stringLiteral value: String) {
        self = Self(value) ?? Self(uncheckedString: ".")
    }

    private init(uncheckedString: String) {
        string = uncheckedString
    }

    /// The component as a string.
    public var description: String { string }

    /// The component as a quoted string literal.
    public var debugDescription: String { string.debugDescription }
}
