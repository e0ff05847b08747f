/*
Abstract:
Why an app bundle's Info.plists were refused: the file, the key, the bad value, and what to do.
*/

/// A refusal of an app's or extension's `Info.plist`, naming the file, the key and the offending value.
///
/// The description is one or two sentences a developer can act on without reading code, such as
/// `App/Info.plist: BAInitialDownloadRestrictions.BADownloadAllowance is -5, but it must be a positive
/// number of bytes. Set it to the combined size of the downloads your extension schedules before the
/// first launch.`
public struct AppBundleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The property list at fault, as the caller named it (for example `App/Info.plist`).
    public var file: String
    /// The key at fault, with its parents for nested keys (`BAInitialDownloadRestrictions.BADownloadAllowance`),
    /// or `nil` when the whole file is at fault.
    public var key: String?
    /// The offending value as text, or `nil` when the key is missing or the file is unreadable.
    public var value: String?
    /// What is wrong, completing "but it must ..." or a similar clause.
    public var problem: String
    /// The next step, as an imperative sentence.
    public var remedy: String

    /// Creates a refusal.
    /// - Parameters:
    ///   - file: The property list at fault.
    ///   - key: The key at fault, or `nil` for the whole file.
    ///   - value: The offending value as text, or `nil`.
    ///   - problem: What is wrong.
    ///   - remedy: What to do.
    public init(file: String, key: String?, value: String?, problem: String, remedy: String) {
        self.file = file
        self.key = key
        self.value = value
        self.problem = problem
        self.remedy = remedy
    }

    /// A sentence naming the file, the key and the value, then the next step.
    public var description: String {
        let subject: String
        switch (key, value) {
        case let (key?, value?): subject = "\(key) is \(value), but \(problem)"
        case let (key?, nil): subject = "\(key) \(problem)"
        case let (nil, value?): subject = "the file holds \(value), but \(problem)"
        case (nil, nil): subject = "the file \(problem)"
        }
        return "\(file): \(subject). \(remedy)"
    }
}

extension AppBundleError {
    /// A required key that is absent.
    static func missing(_ key: String, in file: String, expected: String) -> AppBundleError {
        AppBundleError(
            file: file, key: key, value: nil, problem: "is missing; Background Assets requires it",
            remedy: "Add \(key) as \(expected)."
        )
    }

    /// A key whose value has the wrong property list type.
    static func wrongType(_ key: String, in file: String, value: Any, expected: String) -> AppBundleError {
        AppBundleError(
            file: file, key: key, value: PropertyListText.describe(value), problem: "it must be \(expected)",
            remedy: "Change \(key) to \(expected)."
        )
    }
}
