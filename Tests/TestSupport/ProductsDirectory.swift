/*
Abstract:
Finds the package's built executables beside the running test bundle.
*/

import Foundation

/// The folder that holds the package's built products (asset-server, backgroundassetsd, ...).
///
/// `swift test` builds every product before it runs the tests and puts the test bundle
/// (`<Package>PackageTests.xctest`) beside them, so the folder of the running executable is the
/// products folder. Set `BA_PRODUCTS_DIR` to use binaries from somewhere else, such as a release build.
public enum ProductsDirectory {
    /// The environment variable that overrides the products folder.
    public static let environmentKey = "BA_PRODUCTS_DIR"

    /// The folder that holds the built products.
    /// - Returns: `$BA_PRODUCTS_DIR` when set, otherwise the folder of the running test bundle.
    public static func url() -> URL {
        if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
        }
        return candidateFolders().first ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The location of a built executable.
    /// - Parameter name: The product name, such as `asset-server`.
    /// - Returns: The executable's file URL.
    /// - Throws: `TestSupportError` when no executable of that name was built.
    public static func executable(named name: String) throws -> URL {
        let folders: [URL]
        if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
            folders = [url()]
        } else {
            folders = candidateFolders()
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        let searched = folders.map(\.path).joined(separator: ", ")
        throw TestSupportError(
            "The executable '\(name)' was not found in \(searched). Run `swift build` first "
                + "(with the same --scratch-path as the tests), or set \(environmentKey) to the folder that holds it."
        )
    }

    /// Folders that may hold the products: the running executable's folder and, when it sits
    /// inside an `.xctest` bundle (as on macOS), the folder that holds the bundle.
    private static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        let executable = runningExecutable().resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        folders.append(folder)
        for _ in 0..<4 {
            if folder.pathExtension == "xctest" {
                folders.append(folder.deletingLastPathComponent())
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent()
        if !folders.contains(bundleFolder) {
            folders.append(bundleFolder)
        }
        return folders
    }

    private static func runningExecutable() -> URL {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #endif
        if let url = Bundle.main.executableURL {
            return url
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }
}
