/*
Abstract:
The components of a file path as a collection, which edits the path when it is changed.
*/

extension FilePath {
    /// The non-root components of a path, as a bidirectional, range-replaceable collection; changing
    /// it through ``FilePath/components`` changes the path.
    public struct ComponentView: BidirectionalCollection, RangeReplaceableCollection, Sendable, Hashable {
        /// A position in the components.
        public typealias Index = Int

        /// Whether the path the view is of starts at the root, which the view keeps.
        private var isAbsolute: Bool
        private var elements: [Component]

        init(isAbsolute: Bool, elements: [Component]) {
            self.isAbsolute = isAbsolute
            self.elements = elements
        }

        /// An empty view of a relative path.
        public init() {
            self.init(isAbsolute: false, elements: [])
        }

        /// The path the components make, with the root of the path the view was taken from.
        var path: FilePath {
            FilePath((isAbsolute ? "/" : "") + elements.map(\.string).joined(separator: "/"))
        }

        public var startIndex: Int { elements.startIndex }
        public var endIndex: Int { elements.endIndex }
        public func index(after position: Int) -> Int { elements.index(after: position) }
        public func index(before position: Int) -> Int { elements.index(before: position) }
        public subscript(position: Int) -> Component { elements[position] }

        /// Replaces some components with others.
        public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
        where C.Element == Component {
            elements.replaceSubrange(subrange, with: newElements)
        }
    }
}
