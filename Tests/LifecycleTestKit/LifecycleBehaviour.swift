/*
Abstract:
What a lifecycle test tells the test extension to do: a JSON file the test writes into the app group container.
*/

import Foundation

/// The test extension's instructions, from `Library/Preferences/lifecycle-test.json` in the app group container.
///
/// A test writes the file before it installs the app, so every launch of the extension (the service
/// starts a new process for each piece of work) behaves the same way. Every key is optional; a
/// missing file gives an extension that returns the manifest's sessions, the essential ones as
/// essential, and does nothing else.
public struct LifecycleBehaviour: Codable, Sendable {
    /// The file's path inside the app group container.
    public static let path = "Library/Preferences/lifecycle-test.json"

    /// The app's `BAManifestURL`, which relative session URLs in the manifest are resolved against.
    public var manifestURL: URL?
    /// The sessions returned as essential (for install and update requests); `nil` means those the manifest marks essential.
    public var essential: [String]?
    /// The sessions returned as non-essential; `nil` means every session not returned as essential.
    public var nonEssential: [String]?
    /// The request kinds (1 install, 2 update, 3 periodic) for which downloads are returned; `nil` means all.
    public var returnFor: [Int]?
    /// Whether essential sessions stay essential in a periodic request, which the system must refuse.
    public var essentialForPeriodic: Bool
    /// The request kinds for which `sleepSeconds`, `allocateMiB` and `crash` apply; `nil` means all.
    public var misbehaveFor: [Int]?
    /// Seconds to sleep inside `downloads(for:manifestURL:extensionInfo:)`.
    public var sleepSeconds: Double
    /// MiB to allocate and touch inside `downloads(for:manifestURL:extensionInfo:)`, before sleeping.
    public var allocateMiB: Int
    /// Whether to abort inside `downloads(for:manifestURL:extensionInfo:)`.
    public var crash: Bool
    /// Whether to call `scheduleDownload` inside `downloads(for:manifestURL:extensionInfo:)` and record its error.
    public var scheduleInsideDownloads: Bool
    /// Whether a failed essential download is scheduled again with `removingEssential()`.
    public var rescheduleFailedEssential: Bool
    /// Seconds to hold exclusive control from an async task started in `downloads(for:manifestURL:extensionInfo:)`.
    public var exclusiveControlSeconds: Double
    /// When set, a finished file is moved into place as Apple's sample moves it: first aside, then,
    /// this many seconds after the entry point returned, into place under exclusive control, which
    /// is held a further half second.
    public var moveUnderExclusiveControlAfter: Double?
    /// Whether a finished file is moved as Apple's sample moves it: aside inside the entry point,
    /// which asks for exclusive control with the completion-handler API before it returns; the
    /// handler moves it into place, holding control a further half second.
    public var movesAsTheSampleDoes: Bool
    /// Session identifiers whose URL gets another host, such as `localhost`, to test the domain allow list.
    public var hostOverrides: [String: String]
    /// Seconds to sleep inside `backgroundDownload(_:finishedWithFileURL:)` before taking the file,
    /// so a test can act while the extension holds a finished file.
    public var finishedSleepSeconds: Double

    private enum CodingKeys: String, CodingKey {
        case manifestURL, essential, nonEssential, returnFor, essentialForPeriodic, misbehaveFor, sleepSeconds
        case allocateMiB, crash, scheduleInsideDownloads, rescheduleFailedEssential, exclusiveControlSeconds
        case hostOverrides, moveUnderExclusiveControlAfter, movesAsTheSampleDoes, finishedSleepSeconds
    }

    /// The behaviour of a missing file, with the app's `BAManifestURL` when the test gives it.
    /// - Parameter manifestURL: The URL relative session URLs resolve against.
    public init(manifestURL: URL? = nil) {
        self.manifestURL = manifestURL
        essentialForPeriodic = false
        sleepSeconds = 0
        allocateMiB = 0
        crash = false
        scheduleInsideDownloads = false
        rescheduleFailedEssential = false
        exclusiveControlSeconds = 0
        movesAsTheSampleDoes = false
        hostOverrides = [:]
        finishedSleepSeconds = 0
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manifestURL = try container.decodeIfPresent(URL.self, forKey: .manifestURL)
        essential = try container.decodeIfPresent([String].self, forKey: .essential)
        nonEssential = try container.decodeIfPresent([String].self, forKey: .nonEssential)
        returnFor = try container.decodeIfPresent([Int].self, forKey: .returnFor)
        essentialForPeriodic = try container.decodeIfPresent(Bool.self, forKey: .essentialForPeriodic) ?? false
        misbehaveFor = try container.decodeIfPresent([Int].self, forKey: .misbehaveFor)
        sleepSeconds = try container.decodeIfPresent(Double.self, forKey: .sleepSeconds) ?? 0
        allocateMiB = try container.decodeIfPresent(Int.self, forKey: .allocateMiB) ?? 0
        crash = try container.decodeIfPresent(Bool.self, forKey: .crash) ?? false
        scheduleInsideDownloads = try container.decodeIfPresent(Bool.self, forKey: .scheduleInsideDownloads) ?? false
        rescheduleFailedEssential =
            try container.decodeIfPresent(Bool.self, forKey: .rescheduleFailedEssential) ?? false
        exclusiveControlSeconds = try container.decodeIfPresent(Double.self, forKey: .exclusiveControlSeconds) ?? 0
        moveUnderExclusiveControlAfter = try container.decodeIfPresent(Double.self, forKey: .moveUnderExclusiveControlAfter)
        movesAsTheSampleDoes = try container.decodeIfPresent(Bool.self, forKey: .movesAsTheSampleDoes) ?? false
        hostOverrides = try container.decodeIfPresent([String: String].self, forKey: .hostOverrides) ?? [:]
        finishedSleepSeconds = try container.decodeIfPresent(Double.self, forKey: .finishedSleepSeconds) ?? 0
    }

    /// Reads the behaviour file in an app group container.
    /// - Parameter container: The app group container.
    /// - Returns: The behaviour, or the defaults when there is no file.
    /// - Throws: A decoding error when the file exists but is not a valid behaviour.
    public static func load(in container: URL) throws -> LifecycleBehaviour {
        let file = container.appending(path: path)
        guard let data = try? Data(contentsOf: file) else { return LifecycleBehaviour() }
        return try JSONDecoder().decode(LifecycleBehaviour.self, from: data)
    }

    /// Whether downloads are returned for a request kind.
    public func returnsDownloads(for request: Int) -> Bool {
        returnFor?.contains(request) ?? true
    }

    /// Whether the sleep, allocation and crash apply to a request kind.
    public func misbehaves(for request: Int) -> Bool {
        misbehaveFor?.contains(request) ?? true
    }
}
