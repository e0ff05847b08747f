/*
Abstract:
A file path taken apart and put together: its components, the last one, appending and removing.
*/

extension FilePath {
    /// The non-root components, in order.
    ///
    /// ```swift
    /// var path: FilePath = "/tmp/Slides/intro.pdf"
    /// path.components.count            // 3
    /// path.components.removeLast()     // path is "/tmp/Slides"
    /// ```
    public var components: ComponentView {
        get { ComponentView(isAbsolute: isAbsolute, elements: componentStrings.compactMap { Component(String($0)) }) }
        set { self = newValue.path }
    }

    /// The last component: the file or folder name; `nil` for an empty path and for `/`.
    public var lastComponent: Component? {
        componentStrings.last.flatMap { Component(String($0)) }
    }

    /// The last component's stem: `intro` of `Slides/intro.pdf`.
    public var stem: String? { lastComponent?.stem }

    /// The last component's extension: `pdf` of `Slides/intro.pdf`.
    public var `extension`: String? { lastComponent?.extension }

    /// Appends a path, string or component of one; a leading `/` of `other` is ignored.
    /// - Parameter other: What to append, such as `"Videos/Introduction.m4v"`.
    public mutating func append(_ other: String) {
        let trimmed = FilePath(other).componentStrings
        guard !trimmed.isEmpty else { return }
        let separator = storage.isEmpty || storage == "/" ? "" : "/"
        self = FilePath(storage + separator + trimmed.joined(separator: "/"))
    }

    /// Appends a component.
    /// - Parameter component: The component.
    public mutating func append(_ component: Component) {
        append(component.string)
    }

    /// Appends components.
    /// - Parameter components: The components, in order.
    public mutating func append<C: Collection>(_ components: C) where C.Element == Component {
        for component in components { append(component) }
    }

    /// The path with a path, string or component of one, appended; a leading `/` of `other` is ignored.
    public func appending(_ other: String) -> FilePath {
        var path = self
        path.append(other)
        return path
    }

    /// The path with a component appended.
    public func appending(_ other: Component) -> FilePath {
        var path = self
        path.append(other)
        return path
    }

    /// The path with components appended.
    public func appending<C: Collection>(_ components: C) -> FilePath where C.Element == Component {
        var path = self
        path.append(components)
        return path
    }

    /// Pushes a path: appends it when it is relative, replaces this one when it is absolute.
    /// - Parameter other: The path.
    public mutating func push(_ other: FilePath) {
        if other.isAbsolute { self = other } else { append(other.string) }
    }

    /// The path with `other` pushed; see ``push(_:)``.
    public func pushing(_ other: FilePath) -> FilePath {
        var path = self
        path.push(other)
        return path
    }

    /// Removes the last component.
    /// - Returns: Whether there was one to remove.
    @discardableResult
    public mutating func removeLastComponent() -> Bool {
        guard lastComponent != nil else { return false }
        components.removeLast()
        return true
    }

    /// The path without its last component: the folder it is in.
    public func removingLastComponent() -> FilePath {
        var path = self
        path.removeLastComponent()
        return path
    }

    /// Whether this path begins with all of `other`'s components (and its root, if it has one).
    /// - Parameter other: The prefix.
    public func starts(with other: FilePath) -> Bool {
        isAbsolute == other.isAbsolute && componentStrings.starts(with: other.componentStrings)
    }

    /// The path with `.` components removed and each `..` taking away the name before it, without
    /// consulting the file system; a `..` at the root of an absolute path is dropped.
    public func lexicallyNormalized() -> FilePath {
        var kept: [Substring] = []
        for component in componentStrings where component != "." {
            if component == "..", let last = kept.last, last != ".." {
                kept.removeLast()
            } else if component == "..", isAbsolute {
                continue
            } else {
                kept.append(component)
            }
        }
        return FilePath((isAbsolute ? "/" : "") + kept.joined(separator: "/"))
    }

    /// The components as strings.
    var componentStrings: [Substring] {
        storage.split(separator: "/")
    }
}
