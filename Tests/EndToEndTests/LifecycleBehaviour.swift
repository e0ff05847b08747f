/*
Abstract:
What a lifecycle test tells the test extension to do, written to its app group container before the install.
*/

import Foundation

/// The test extension's instructions, as `Library/Preferences/lifecycle-test.json` in the app group container.
///
/// The extension's side of this format is Tests/lifecycle-test-extension/ExtensionBehaviour.swift;
/// keep the two in step. `nil` and default values are left to the extension's defaults.
struct LifecycleBehaviour: Encodable, Sendable {
    /// The app's `BAManifestURL`, which relative session URLs are resolved against.
    var manifestURL: URL
    /// The sessions returned as essential; `nil` means those the manifest marks essential.
    var essential: [String]?
    /// The sessions returned as non-essential; `nil` means every other session.
    var nonEssential: [String]?
    /// The request kinds (1 install, 2 update, 3 periodic) for which downloads are returned; `nil` means all.
    var returnFor: [Int]?
    /// Whether essential sessions stay essential in a periodic request.
    var essentialForPeriodic = false
    /// The request kinds for which the sleep, allocation and crash apply; `nil` means all.
    var misbehaveFor: [Int]?
    /// Seconds to sleep inside `downloads(for:manifestURL:extensionInfo:)`.
    var sleepSeconds: Double = 0
    /// MiB to allocate and touch inside `downloads(for:manifestURL:extensionInfo:)`.
    var allocateMiB = 0
    /// Whether to abort inside `downloads(for:manifestURL:extensionInfo:)`.
    var crash = false
    /// Whether to call `scheduleDownload` inside `downloads(for:manifestURL:extensionInfo:)`.
    var scheduleInsideDownloads = false
    /// Whether failed essential downloads are scheduled again with `removingEssential()`.
    var rescheduleFailedEssential = false
    /// Seconds to hold exclusive control from an async task started in `downloads(for:manifestURL:extensionInfo:)`.
    var exclusiveControlSeconds: Double = 0
    /// Session identifiers whose URL gets another host.
    var hostOverrides: [String: String] = [:]

    /// Instructions for an app whose manifest is at `manifestURL`: return the manifest's sessions, nothing else.
    init(manifestURL: URL) {
        self.manifestURL = manifestURL
    }
}
