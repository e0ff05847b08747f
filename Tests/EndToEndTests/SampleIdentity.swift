/*
Abstract:
The sample's identity as App/Info.plist and Extension/Info.plist declare it, so the tests follow a renamed copy.
*/

import Foundation
import TestSupport

/// The sample app's identity, read from the package's `App/Info.plist` and `Extension/Info.plist`.
///
/// The sample's tests name nothing these two files already say: a copy of the package renamed as
/// `Docs/UsingAsTemplate.md` describes (another bundle identifier, app group, executables and port)
/// runs the same tests against its own identity.
struct SampleIdentity: Sendable {
    /// The app's `CFBundleIdentifier`.
    var bundleIdentifier: String
    /// The app group both Info.plists declare in `AppGroupIdentifier`.
    var appGroupIdentifier: String
    /// The app's `CFBundleExecutable`, the product `backgroundassets-debug install` copies into the bundle.
    var appExecutable: String
    /// The extension's `CFBundleExecutable`.
    var extensionExecutable: String
    /// The first of the app's `BGTaskSchedulerPermittedIdentifiers`: its background refresh.
    var refreshTaskIdentifier: String
    /// The app's `BAManifestURL` as shipped.
    var manifestURL: URL

    /// The repository's root, where App/Info.plist and Extension/Info.plist are.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The identity of the package these tests were built from.
    ///
    /// A package without readable Info.plists cannot run any sample test, so this stops the test
    /// process with a sentence naming the file rather than failing every test one by one.
    static let sample: SampleIdentity = {
        do {
            return try SampleIdentity(repository: repositoryRoot)
        } catch {
            fatalError("The sample's identity cannot be read: \(error)")
        }
    }()

    /// Reads the identity from a package's two Info.plists.
    /// - Parameter repository: The package's root folder.
    /// - Throws: `TestSupportError` naming the file and the key that is missing.
    init(repository: URL) throws {
        let appFile = repository.appendingPathComponent("App/Info.plist")
        let extensionFile = repository.appendingPathComponent("Extension/Info.plist")
        let app = try Self.dictionary(at: appFile)
        let appExtension = try Self.dictionary(at: extensionFile)
        func string(_ key: String, in plist: [String: Any], _ file: URL) throws -> String {
            guard let value = plist[key] as? String, !value.isEmpty else {
                throw TestSupportError("\(file.path) has no \(key); the sample's tests read it from there.")
            }
            return value
        }
        bundleIdentifier = try string("CFBundleIdentifier", in: app, appFile)
        appGroupIdentifier = try string("AppGroupIdentifier", in: app, appFile)
        appExecutable = try string("CFBundleExecutable", in: app, appFile)
        extensionExecutable = try string("CFBundleExecutable", in: appExtension, extensionFile)
        guard let refresh = (app["BGTaskSchedulerPermittedIdentifiers"] as? [String])?.first else {
            throw TestSupportError("\(appFile.path) has no BGTaskSchedulerPermittedIdentifiers; "
                + "the sample's background refresh tests read it from there.")
        }
        refreshTaskIdentifier = refresh
        guard let manifest = URL(string: try string("BAManifestURL", in: app, appFile)) else {
            throw TestSupportError("The BAManifestURL of \(appFile.path) is not a URL.")
        }
        manifestURL = manifest
    }

    private static func dictionary(at file: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: file)
        guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw TestSupportError("\(file.path) is not a dictionary property list.")
        }
        return plist
    }
}
