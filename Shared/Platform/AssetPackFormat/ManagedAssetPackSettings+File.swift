/*
Abstract:
The managed asset-pack keys read from an Info.plist file on disk.
*/

import Foundation

extension ManagedAssetPackSettings {
    /// Reads the keys from the Info.plist file at `url`, XML or binary.
    /// - Throws: ``AssetPackFormatError`` when the file cannot be read as a property list, or a key is wrong.
    public init(contentsOf url: URL) throws(AssetPackFormatError) {
        guard let data = try? Data(contentsOf: url),
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw AssetPackFormatError(source: url.path, problem: "cannot be read; install the app again.")
        }
        try self.init(infoDictionary: plist, source: url.path)
    }
}
