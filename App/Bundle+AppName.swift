/*
Abstract:
The name the app calls itself in what it prints: the one its installed Info.plist gives it.
*/

import Foundation

extension Bundle {
    /// The name a person sees for the bundle: `CFBundleDisplayName`, else `CFBundleName`, as the
    /// home screen shows it; `nil` when the Info.plist has neither, or there is none.
    var displayName: String? {
        for key in ["CFBundleDisplayName", "CFBundleName"] {
            if let name = object(forInfoDictionaryKey: key) as? String, !name.isEmpty { return name }
        }
        return nil
    }

    /// The app's name in its messages, taken from the installed Info.plist so that a copy renamed
    /// from the template (Docs/UsingAsTemplate.md) never calls itself by the sample's name.
    ///
    /// Before `backgroundassets-debug install` the app runs from its build folder, without an
    /// Info.plist; it then goes by its executable's name.
    static let appName = Bundle.main.displayName ?? AppOptions.command
}
