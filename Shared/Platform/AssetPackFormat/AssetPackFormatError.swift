/*
Abstract:
The error of the asset-pack formats: which file, which field, what is wrong with it and what to do.
*/

/// A manifest, a pack's header or an Info.plist that breaks a rule of the asset-pack formats.
///
/// The description names the file (or URL), the field at fault (for example
/// `assetPacks[2].downloadPolicy`), and the next step, so a developer can fix the file from the
/// message alone.
public struct AssetPackFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, URL or key list the value came from, for example `Tutorial/Manifest.json`.
    public var source: String
    /// The field at fault as a path into the document, or `nil` when the whole document is.
    public var field: String?
    /// What is wrong and what to do next, as a sentence.
    public var problem: String

    /// Creates an error.
    /// - Parameters:
    ///   - source: The file, URL or key list the value came from.
    ///   - field: The field at fault, or `nil` for the whole document.
    ///   - problem: What is wrong and what to do next.
    public init(source: String, field: String? = nil, problem: String) {
        self.source = source
        self.field = field
        self.problem = problem
    }

    /// The error as one line: source, field, problem.
    public var description: String {
        guard let field else { return "\(source): \(problem)" }
        return "\(source): \(field): \(problem)"
    }
}
