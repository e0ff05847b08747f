/*
Abstract:
What the demo knows about the app it runs, read from the repository's App/Info.plist.
*/

import Foundation

/// The app of `App/Info.plist`: the demo installs, launches and names it from there, so a copy
/// renamed from the template (Docs/UsingAsTemplate.md) runs and greets its user as itself.
struct SampleAppInfo {
    /// The Info.plist's keys, or an empty dictionary when it cannot be read.
    let keys: [String: Any]

    /// Reads `App/Info.plist` in a repository.
    /// - Parameter repository: The repository's root folder.
    init(repository: URL) {
        let file = repository.appending(path: "App/Info.plist")
        let plist = FileManager.default.contents(atPath: file.path).flatMap {
            try? PropertyListSerialization.propertyList(from: $0, format: nil)
        }
        keys = plist as? [String: Any] ?? [:]
    }

    /// `CFBundleIdentifier`.
    var bundleIdentifier: String? { keys["CFBundleIdentifier"] as? String }

    /// `CFBundleExecutable`: the product the demo runs and `install` links into the bundle.
    var executable: String? { (keys["CFBundleExecutable"] as? String).flatMap { $0.isEmpty ? nil : $0 } }

    /// The name a person sees: `CFBundleDisplayName`, else `CFBundleName`, else the executable's.
    var displayName: String {
        for key in ["CFBundleDisplayName", "CFBundleName"] {
            if let name = keys[key] as? String, !name.isEmpty { return name }
        }
        return executable ?? "the app of App/Info.plist"
    }
}
