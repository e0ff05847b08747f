/*
Abstract:
A copy of one of the repository's Info.plists with one URL pointed at a test's own server.
*/

import Foundation
import TestSupport

/// Writes a copy of an Info.plist of the repository with `key` set to `url`, for an install against
/// a server on a port of the test's own.
/// - Parameters:
///   - path: The Info.plist, relative to the repository's root (`App/Info.plist`).
///   - key: The key to set (`BAManifestURL`, `GameVersionURL`).
///   - url: Its value.
///   - copy: Where to write the copy.
/// - Returns: `copy`.
func infoPlistCopy(of path: String, setting key: String, to url: URL, at copy: URL) throws -> URL {
    let original = SampleIdentity.repositoryRoot.appending(path: path)
    let data = try Data(contentsOf: original)
    guard var plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
        throw TestSupportError("\(original.path) is not a dictionary property list.")
    }
    plist[key] = url.absoluteString
    try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: copy)
    return copy
}
