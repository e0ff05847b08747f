/*
Abstract:
The errors of managed asset packs: a pack or a file that is not there.
*/

import Foundation

/// An error for a managed asset pack.
public enum ManagedBackgroundAssetsError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// An error that's thrown when the system can't find an asset pack with the given ID.
    case assetPackNotFound(withID: String)
    /// An error that's thrown when the system can't find a file at the specified path.
    case fileNotFound(at: FilePath)

    /// A sentence naming the pack or file and what to check.
    public var description: String {
        switch self {
        case let .assetPackNotFound(id):
            "No asset pack with the ID \(id.debugDescription) is available: it is not in the app's download manifest, "
                + "or it is not on the device. Check the ID against the manifest (ba-package download-manifest create), "
                + "and call ensureLocalAvailability(of:) before reading its files."
        case let .fileNotFound(path):
            "No downloaded asset pack has a file at \(path.string.debugDescription). Check the path against the pack's "
                + "fileSelectors (paths are relative to where ba-package ran), and that the pack is downloaded."
        }
    }

    /// The ``description``, which `localizedDescription` returns.
    public var errorDescription: String? { description }
}
