/*
Abstract:
Finds an app bundle's two executables in a folder by their CFBundleExecutable names.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AppBundleDescription {
    /// The app's and the extension's executables in a folder, checked to exist and be executable.
    ///
    /// `backgroundassets-debug install` looks beside itself, where `swift build` puts every product,
    /// so `CFBundleExecutable` is a plain file name (``AppInfoPlist`` refuses paths).
    /// - Parameters:
    ///   - directory: The folder that holds the built products.
    ///   - appFile: The app's Info.plist name, for errors.
    ///   - extensionFile: The extension's Info.plist name, for errors.
    /// - Returns: The app's executable and the extension's, if it has one.
    /// - Throws: ``AppBundleError`` naming the Info.plist and `CFBundleExecutable` of a missing executable.
    public func executables(
        in directory: URL, appFile: String = "App/Info.plist", extensionFile: String = "Extension/Info.plist"
    ) throws -> (app: URL, extension: URL?) {
        let appExecutable = try Self.executable(app.executable, in: directory, file: appFile)
        let extensionExecutable = try `extension`.map { try Self.executable($0.executable, in: directory, file: extensionFile) }
        return (appExecutable, extensionExecutable)
    }

    private static func executable(_ name: String, in directory: URL, file: String) throws -> URL {
        let url = directory.appending(path: name, directoryHint: .notDirectory)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        guard exists, !isDirectory.boolValue, access(url.path, X_OK) == 0 else {
            throw AppBundleError(
                file: file, key: "CFBundleExecutable", value: PropertyListText.quote(name),
                problem: "no executable file of that name is in \(directory.path)",
                remedy:
                    "Build every product first (swift build), or fix CFBundleExecutable to name the executable target."
            )
        }
        return url
    }
}
