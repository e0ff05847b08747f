/*
Abstract:
The parts an extension's entry point returns its downloads in: each is scheduled as it arrives, and only a tally of them stays with the running call.
*/

import BackgroundAssetsIPC

/// Why a part of a call's answer was refused.
enum ReturnedPartRefusal: Error, Equatable {
    /// No call with that id runs on the connection: it timed out, or it already returned.
    case noSuchCall
    /// The call running is not `downloads(for:...)`, the only entry point that answers in parts.
    case notDownloads(entryPoint: String)
    /// The parts together would hold more than ``ExtensionCallLifecycle/maximumReturnedDownloads``.
    case tooMany(Int)
}

extension ExtensionCallLifecycle {
    /// The most downloads one call's parts may hold together, so that an extension that never stops
    /// sending cannot grow the queue, or the identifiers the call remembers, without bound.
    static let maximumReturnedDownloads = 1_000_000

    /// The call a part belongs to, and which of the part's identifiers an earlier part held.
    struct ReturnedPart: Equatable {
        var app: String
        /// The content request the call answers.
        var kind: ContentRequestKind
        /// The part's identifiers that an earlier part held: the service refuses them as returned twice.
        var returnedBefore: Set<String>
    }
}

/// What scheduling one part of a call's answer did.
struct ScheduledReturn: Sendable, Equatable {
    /// How many downloads were queued.
    var scheduled = 0
    /// How many were refused; the extension is told of each.
    var refused = 0
    /// The essential downloads admitted and not queued yet: they are queued with the call's return,
    /// when the install learns every essential row at once, since one that finished before the install
    /// knew it would never count as settled.
    var heldEssentials: [DownloadDescriptor] = []
}

/// What the parts of one call's answer did, kept with the running call in place of the parts
/// themselves: each part is scheduled as it arrives, so the service holds one part's downloads at a
/// time however many the extension returns, and only the essential ones (an install has a few) until
/// the call returns.
struct ReturnedPartsTally: Sendable, Equatable {
    /// How many downloads the parts held, scheduled or refused.
    private(set) var count = 0
    /// Their identifiers: one returned again, in a later part or with the return, is refused as it is
    /// when one answer holds it twice.
    private(set) var identifiers: Set<String> = []
    /// How many the parts queued and refused, for the call's one `scheduleReturnedDownloads` trace line.
    private(set) var scheduled = 0
    private(set) var refused = 0
    /// The essential downloads the parts held back for the return, in the order they came.
    private(set) var heldEssentials: [DownloadDescriptor] = []

    /// Counts a part's downloads.
    /// - Returns: Those of `identifiers` an earlier part held.
    @discardableResult
    mutating func add(_ identifiers: [String]) -> Set<String> {
        count += identifiers.count
        // Against the earlier parts only: an identifier twice in this part is the scheduling's to refuse.
        let before = Set(identifiers.filter(self.identifiers.contains))
        self.identifiers.formUnion(identifiers)
        return before
    }

    /// Adds what scheduling a part did.
    mutating func add(_ outcome: ScheduledReturn) {
        scheduled += outcome.scheduled
        refused += outcome.refused
        heldEssentials += outcome.heldEssentials
    }
}
