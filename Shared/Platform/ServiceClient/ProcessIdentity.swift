/*
Abstract:
Who this process is to the system service: its app's bundle identifier and its role.
*/

import BackgroundAssetsIPC
import Foundation

/// The bundle identifier and role this process presents in its `hello`.
///
/// - Note: On Apple platforms the system knows every process's bundle from its code signature.
///   Here the service passes `BA_BUNDLE_IDENTIFIER` and `BA_PROCESS_ROLE` to the extension it
///   launches, and the app's launcher (or the developer) sets `BA_BUNDLE_IDENTIFIER` for the app.
package struct ProcessIdentity: Sendable, Equatable {
    /// The environment variable naming the app whose downloads this process works on.
    package static let bundleIdentifierVariable = "BA_BUNDLE_IDENTIFIER"
    /// The environment variable naming the process's role: `app`, `extension` or `tool`.
    package static let roleVariable = "BA_PROCESS_ROLE"

    /// The app's bundle identifier (the extension presents its app's).
    package var bundleIdentifier: String
    /// Whether this is the app, its extension, or the debug tool.
    package var role: Hello.Role

    /// Creates an identity.
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - role: The process's role.
    package init(bundleIdentifier: String, role: Hello.Role) {
        self.bundleIdentifier = bundleIdentifier
        self.role = role
    }

    /// The identity of this process: from the environment, else the installed app whose executable
    /// this is (as a home-screen launch would know it), else the main bundle, else the executable's name.
    /// - Parameters:
    ///   - environment: The environment to read; the process's own by default.
    ///   - paths: The device root whose installed apps are searched.
    ///   - executable: This process's executable.
    /// - Returns: The identity; the role is `app` unless the environment says otherwise.
    package static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        paths: DevicePaths = .current(),
        executable: URL? = Bundle.main.executableURL
    ) -> ProcessIdentity {
        let role = environment[roleVariable].flatMap(Hello.Role.init(rawValue:)) ?? .app
        let bundleIdentifier =
            environment[bundleIdentifierVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? executable.flatMap { installedApp(runningAs: $0, in: paths) }
            ?? Bundle.main.bundleIdentifier
            ?? ProcessInfo.processInfo.processName
        return ProcessIdentity(bundleIdentifier: bundleIdentifier, role: role)
    }

    /// The bundle identifier of the installed app whose executable is `executable`, if one is.
    ///
    /// `backgroundassets-debug install` records each app's executables in `apps/ID/app.json`, so
    /// `swift run wwdc-sessions` presents the installed app's identifier without any setup.
    package static func installedApp(runningAs executable: URL, in paths: DevicePaths) -> String? {
        installedAppRecord(runningAs: executable, in: paths)?.bundleIdentifier
    }

    /// The installed app whose bundle executable, or built executable, is `executable`, if one is.
    /// - Returns: The app's bundle identifier and the executable inside its installed bundle.
    package static func installedAppRecord(
        runningAs executable: URL, in paths: DevicePaths
    ) -> (bundleIdentifier: String, bundleExecutable: URL)? {
        let target = executable.resolvingSymlinksInPath().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.appsDirectory.path)) ?? []
        for name in names.sorted() {
            guard let record = paths.appRecordFile(forBundleIdentifier: name),
                let data = try? Data(contentsOf: record), data.count <= 1 << 20,
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let recorded = (object["appExecutable"] as? String).flatMap(URL.init(string:))
            else { continue }
            let built = (object["builtAppExecutable"] as? String).flatMap(URL.init(string:))
            let candidates = [recorded, built].compactMap { $0?.resolvingSymlinksInPath().path }
            if candidates.contains(target) { return (name, recorded) }
        }
        return nil
    }

    /// The `hello` this process sends.
    package var hello: Hello {
        Hello(
            bundleIdentifier: bundleIdentifier, role: role, processIdentifier: ProcessInfo.processInfo.processIdentifier
        )
    }
}
