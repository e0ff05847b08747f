/*
Abstract:
The downloader extension's Info.plist: its identity, its extension point and its app groups, validated.
*/

import Foundation

/// What the system reads from a downloader extension's `Info.plist`, every value validated.
public struct ExtensionInfoPlist: Sendable, Equatable, Codable {
    /// The extension point every Background Assets downloader extension declares.
    public static let extensionPointIdentifier = "com.apple.background-asset-downloader-extension"

    /// `CFBundleIdentifier`: the app's identifier followed by a dot and a name.
    public var bundleIdentifier: String
    /// `CFBundleExecutable`: the file name of the extension's executable.
    public var executable: String
    /// `CFBundleVersion`, when the file has one; it must equal the app's.
    public var version: String?
    /// The app groups the extension belongs to.
    public var appGroups: [String]
    /// `AppGroupIdentifier`, the key Apple's sample reads its app group from, when the file has one.
    public var appGroupIdentifier: String?

    /// Reads and validates an extension's Info.plist.
    ///
    /// The extension point is read from `EXAppExtensionAttributes.EXExtensionPointIdentifier`, the
    /// ExtensionKit key Xcode's Background Download template writes, or from the older
    /// `NSExtension.NSExtensionPointIdentifier`; one of them must name ``extensionPointIdentifier``.
    /// - Parameters:
    ///   - data: The file's bytes, an XML or binary property list.
    ///   - file: The file's name for errors, such as `Extension/Info.plist`.
    /// - Throws: ``AppBundleError`` naming the first key at fault.
    public init(data: Data, file: String) throws {
        let plist = try PropertyListReader(data: data, file: file)
        bundleIdentifier = try plist.bundleIdentifier()
        executable = try plist.executableName()
        version = plist.contains("CFBundleVersion") ? try plist.bundleVersion("CFBundleVersion") : nil
        try Self.checkExtensionPoint(plist)
        appGroups = try plist.appGroups()
        // Checked against the app's group in AppBundleDescription, where both files are known.
        let key = PropertyListReader.appGroupIdentifierKey
        appGroupIdentifier = plist.contains(key) ? try plist.string(key) : nil
    }

    private static func checkExtensionPoint(_ plist: PropertyListReader) throws {
        let attributesKey = plist.contains("EXAppExtensionAttributes") ? "EXAppExtensionAttributes" : "NSExtension"
        guard plist.contains(attributesKey) else {
            throw AppBundleError.missing(
                "EXAppExtensionAttributes", in: plist.file,
                expected: "a dictionary whose EXExtensionPointIdentifier is \(extensionPointIdentifier)"
            )
        }
        let attributes = try plist.dictionary(attributesKey)
        let pointKey = attributesKey == "NSExtension" ? "NSExtensionPointIdentifier" : "EXExtensionPointIdentifier"
        let point = try attributes.string(pointKey)
        guard point == extensionPointIdentifier else {
            throw AppBundleError(
                file: plist.file, key: attributes.keyPath(pointKey), value: PropertyListText.quote(point),
                problem: "a Background Assets downloader extension must declare \(extensionPointIdentifier)",
                remedy: "Set \(pointKey) to \(extensionPointIdentifier)."
            )
        }
    }
}
