/*
Abstract:
Reads the bundle keys both Info.plists share: identifier, executable, versions and app groups.
*/

import BackgroundAssetsIPC

extension PropertyListReader {
    /// `CFBundleIdentifier`: Apple's rules (letters, digits, `-` and `.`, no empty component), at most 155 characters.
    ///
    /// The identifier later names the app's folder under `apps/`, so anything that could act as a path
    /// (`/`, `..`, a leading dot) is refused here as well as by ``DevicePaths/isSafePathComponent(_:)``.
    func bundleIdentifier(_ key: String = "CFBundleIdentifier") throws -> String {
        let identifier = try string(key)
        let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            identifier.utf8.count <= 155
            && DevicePaths.isSafePathComponent(identifier)
            && components.count >= 2
            && components.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy(Self.isBundleIdentifierScalar) }
        guard valid else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: PropertyListText.quote(identifier),
                problem: "it must be a reverse-DNS identifier of letters, digits, hyphens and dots "
                    + "(at most 155 characters, no empty component)",
                remedy: "Use an identifier such as com.example.MyApp."
            )
        }
        return identifier
    }

    /// `CFBundleExecutable`: one file name, found beside the debug tool, so never a path.
    func executableName(_ key: String = "CFBundleExecutable") throws -> String {
        let name = try string(key)
        guard DevicePaths.isSafePathComponent(name) else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: PropertyListText.quote(name),
                problem: "it must be a file name of letters, digits, '.', '-' and '_' (no '/', not starting with '.')",
                remedy: "Name the executable's file, such as wwdc-sessions, not a path."
            )
        }
        return name
    }

    /// A version key: one to three integers separated by dots, as App Store Connect requires.
    func bundleVersion(_ key: String) throws -> String {
        let version = try string(key)
        guard BundleVersion(version) != nil else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: PropertyListText.quote(version),
                problem: "it must be one to three non-negative integers separated by dots",
                remedy: "Use a version such as 1.0 or 2.3.1."
            )
        }
        return version
    }

    /// The key under which this stand-in reads an app group membership.
    ///
    /// It stands in for the entitlement of the same name; ``AppInfoPlist/appGroups`` explains why.
    static let appGroupsKey = "com.apple.security.application-groups"

    /// The key Apple's sample reads its app group from, through `Bundle.main.infoDictionary`.
    static let appGroupIdentifierKey = "AppGroupIdentifier"

    /// `AppGroupIdentifier`, when the file has one: it must be one of `groups`, so the container the
    /// code opens is one the process belongs to.
    /// - Parameter groups: The groups the file declares under ``appGroupsKey``.
    /// - Returns: The identifier, or `nil` when the key is absent.
    func appGroupIdentifier(among groups: [String]) throws -> String? {
        let key = Self.appGroupIdentifierKey
        guard contains(key) else { return nil }
        let identifier = try string(key)
        guard groups.contains(identifier) else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: PropertyListText.quote(identifier),
                problem: "it is not one of the groups in \(Self.appGroupsKey), \(PropertyListText.list(groups))",
                remedy: "Set it to the app group the app and its extension share."
            )
        }
        return identifier
    }

    /// The app groups declared under ``appGroupsKey``: at least one, each a `group.` identifier usable as a folder.
    func appGroups() throws -> [String] {
        let key = Self.appGroupsKey
        let groups = try strings(key)
        guard !groups.isEmpty else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: "an empty array",
                problem: "it must list the app group the app and its extension share",
                remedy: "Add your app group, such as group.com.example.MyApp."
            )
        }
        for (index, group) in groups.enumerated() {
            guard group.hasPrefix("group."), group.count > 6, DevicePaths.isSafePathComponent(group) else {
                throw AppBundleError(
                    file: file, key: "\(keyPath(key))[\(index)]", value: PropertyListText.quote(group),
                    problem:
                        "an app group identifier must start with \"group.\" "
                        + "and use only letters, digits, '.', '-' and '_'",
                    remedy: "Use an identifier such as group.com.example.MyApp."
                )
            }
        }
        return groups
    }

    private static func isBundleIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-": true
        default: false
        }
    }
}
