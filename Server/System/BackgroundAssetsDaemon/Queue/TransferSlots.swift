/*
Abstract:
Which transfers may run at once: the slots of background downloads, and the small downloads' own.
*/

/// The slots background transfers take, and which one a due download would take now.
///
/// A background transfer takes one of `maxConcurrentDownloads` slots. A small one (a declared
/// size of at most ``smallFileSize``) first takes one of `maxConcurrentSmallDownloads` slots of
/// its own, and a regular slot only when those are all taken: a small file costs its round trips
/// and its sync more than its bytes, so more of them at once overlap those waits, while the
/// regular slots stay for the large files that share the background bandwidth. Foreground
/// transfers take no slot: they are never held back.
///
/// Invariant: the running background transfers in regular slots never outnumber
/// `maxConcurrentDownloads`, and those in small slots never outnumber `maxConcurrentSmallDownloads`,
/// however pumps, promotions and ends interleave: a transfer keeps the slot it started in until it
/// ends, is promoted, or has received its whole body (then it may give the slot up while it syncs,
/// ``DownloadQueue/releaseSlotsOfWholeBodies()``), and slots are counted from the running
/// transfers that hold one at every pump.
struct TransferSlots {
    /// What a running transfer holds.
    enum Slot: Equatable {
        case foreground
        case regular
        case small
    }

    /// The largest declared size that may take a small download's slot: 256 KiB. A download
    /// that declares no size (0) is not small. The declared size is enforced (a transfer whose
    /// server sends more fails), so a large file cannot take a small slot by declaring less.
    static let smallFileSize = 256 << 10

    private(set) var freeRegular: Int
    private(set) var freeSmall: Int

    /// The slots left with these transfers running.
    /// - Parameters:
    ///   - configuration: Where the numbers of slots come from.
    ///   - running: The slot each running transfer holds.
    init(configuration: ServiceConfiguration, running: some Sequence<Slot>) {
        var regular = configuration.maxConcurrentDownloads
        var small = configuration.maxConcurrentSmallDownloads
        for slot in running {
            switch slot {
            case .foreground: break
            case .regular: regular -= 1
            case .small: small -= 1
            }
        }
        freeRegular = regular
        freeSmall = small
    }

    /// How many due background downloads could start now: how far down the run order to look.
    var backgroundRoom: Int { max(freeRegular, 0) + max(freeSmall, 0) }

    /// Takes the slot a download would start in, or returns `nil` when it must wait for one.
    /// - Parameters:
    ///   - isForeground: Whether it runs in the foreground, which needs no slot.
    ///   - declaredSize: Its declared size in bytes, 0 when it declared none.
    mutating func take(isForeground: Bool, declaredSize: Int) -> Slot? {
        if isForeground { return .foreground }
        if declaredSize > 0, declaredSize <= Self.smallFileSize, freeSmall > 0 {
            freeSmall -= 1
            return .small
        }
        guard freeRegular > 0 else { return nil }
        freeRegular -= 1
        return .regular
    }
}
