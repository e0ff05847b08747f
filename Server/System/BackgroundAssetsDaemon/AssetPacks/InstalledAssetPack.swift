/*
Abstract:
An asset pack installed on the device for an app: which version, by which policy, how big, and when last used.
*/

import AssetPackFormat
import Foundation

/// One installed pack of one app, as the service records it.
public struct InstalledAssetPack: Sendable, Equatable {
    /// The app the pack belongs to.
    public var bundleIdentifier: String
    /// The pack's identifier.
    public var packID: String
    /// The version readers see.
    public var version: Int
    /// The pack's download policy, which decides what storage pressure may remove.
    public var downloadPolicy: AssetPackDownloadPolicy
    /// The size of its files.
    public var installSize: Int64
    /// The bytes it occupies on disk.
    public var sizeOnDisk: Int64
    /// When this version was installed (device time).
    public var installed: Date
    /// When the app last asked for it (device time); storage pressure removes the least recently used first.
    public var lastUsed: Date

    /// Which app's pack this is: the identity of a record.
    public struct Key: Sendable, Hashable {
        public var bundleIdentifier: String
        public var packID: String

        /// Creates a key.
        public init(bundleIdentifier: String, packID: String) {
            self.bundleIdentifier = bundleIdentifier
            self.packID = packID
        }
    }

    /// The record's key.
    public var key: Key { Key(bundleIdentifier: bundleIdentifier, packID: packID) }

    /// Creates a record.
    public init(bundleIdentifier: String, packID: String, version: Int, downloadPolicy: AssetPackDownloadPolicy,
                installSize: Int64, sizeOnDisk: Int64, installed: Date, lastUsed: Date) {
        self.bundleIdentifier = bundleIdentifier
        self.packID = packID
        self.version = version
        self.downloadPolicy = downloadPolicy
        self.installSize = installSize
        self.sizeOnDisk = sizeOnDisk
        self.installed = installed
        self.lastUsed = lastUsed
    }
}
