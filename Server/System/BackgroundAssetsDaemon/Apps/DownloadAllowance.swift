/*
Abstract:
The pre-first-launch accounting of an app's download allowances, and the BAErrors it produces.
*/

import BackgroundAssetsIPC
import Foundation

/// What an app may still download before its first launch, as downloads are accepted.
///
/// Until the first launch, every download the extension schedules is counted by its declared
/// `fileSize`: essential ones against `BAEssentialDownloadAllowance`, the others against
/// `BADownloadAllowance` (two separate pools, as Apple documents the keys), and its host must be in
/// `BADownloadDomainAllowList`. ``lift()`` removes every restriction once the app launches.
///
/// Which error applies where (Apple documents the codes but not when each is raised; the `download…`
/// codes are thrown by a call, the `sessionDownload…` codes arrive as a download's failure):
/// - ``admit(_:)`` throws `downloadWouldExceedAllowance` (112) when the declared size does not fit
///   what remains of the download's pool;
/// - ``admit(_:)`` throws `sessionDownloadDisallowedByDomain` (202) for a host outside the allow list,
///   a redirect during the transfer is checked against the same list by the transfer engine
///   (`TransferRequest.allowedHosts`), and fails with the same code;
/// - ``admit(_:)`` throws `sessionDownloadDisallowedByAllowance` (203) for a download that declares no
///   size (the deprecated size-less initialisers), which cannot be counted;
/// - ``checkTransfer(_:receivedBytes:)`` throws `sessionDownloadAllowanceExceeded` (204) when the server
///   sends more bytes than the download declared and the excess does not fit the pool;
/// - ``admit(_:)`` throws `sessionDownloadNotPermittedBeforeAppLaunch` (206) while the device's
///   in-app content setting is off.
///
/// - Note: Which code Apple raises in each case is not documented; this mapping is this stand-in's
///   reading of the codes' names, and Docs/AppleAPIMapping.md should record it.
public struct DownloadAllowance: Sendable, Equatable, Codable {
    /// The restrictions from the Info.plist, or `nil` once the app has launched.
    public private(set) var restrictions: InitialDownloadRestrictions?
    /// The bytes of non-essential downloads that can still be accepted.
    public private(set) var downloadRemaining: Int
    /// The bytes of essential downloads that can still be accepted.
    public private(set) var essentialRemaining: Int

    /// Starts the accounting for a newly installed app.
    /// - Parameters:
    ///   - restrictions: The app's `BAInitialDownloadRestrictions`.
    ///   - hasLaunched: Whether the app has already launched (an update of a launched app): then nothing is restricted.
    public init(restrictions: InitialDownloadRestrictions, hasLaunched: Bool = false) {
        self.restrictions = hasLaunched ? nil : restrictions
        downloadRemaining = restrictions.downloadAllowance
        essentialRemaining = restrictions.essentialDownloadAllowance
    }

    /// Whether the restrictions are lifted because the app has launched.
    public var isLifted: Bool { restrictions == nil }

    /// The remaining allowances for the extension, `nil` each once the app has launched.
    public var extensionInfo: BAAppExtensionInfo {
        BAAppExtensionInfo(
            restrictedDownloadSizeRemaining: isLifted ? nil : downloadRemaining,
            restrictedEssentialDownloadSizeRemaining: isLifted ? nil : essentialRemaining
        )
    }

    /// Lifts every restriction: the app has launched.
    public mutating func lift() { restrictions = nil }

    /// Accepts a download before the first launch, or refuses it with the `BAError` that applies.
    /// - Parameter request: The download's identifier, URL, declared size and kind.
    /// - Throws: `BAError` with code 112, 202, 203 or 206 (see the type's discussion); nothing once lifted.
    public mutating func admit(_ request: Request) throws {
        guard let restrictions else { return }
        let name = PropertyListText.quote(request.identifier)
        guard request.inAppContentEnabled else {
            throw BAError(
                .sessionDownloadNotPermittedBeforeAppLaunch,
                message: "The download \(name) cannot run "
                    + "before the app's first launch because in-app content is off in the device's settings. "
                    + "Turn it on (backgroundassets-debug settings --in-app-content on) or launch the app.")
        }
        try checkHost(request.url.host() ?? "", identifier: request.identifier)
        guard request.fileSize > 0 else {
            throw BAError(
                .sessionDownloadDisallowedByAllowance,
                message: "The download \(name) declares no file size, "
                    + "so it cannot be counted against the app's download allowance before the first launch. "
                    + "Create it with init(identifier:request:fileSize:applicationGroupIdentifier:) and its exact size."
            )
        }
        let remaining = request.isEssential ? essentialRemaining : downloadRemaining
        guard request.fileSize <= remaining else {
            let key = request.isEssential ? "BAEssentialDownloadAllowance" : "BADownloadAllowance"
            let limit = request.isEssential ? restrictions.essentialDownloadAllowance : restrictions.downloadAllowance
            throw BAError(
                .downloadWouldExceedAllowance,
                message: "The download \(name) of \(request.fileSize) bytes "
                    + "would exceed the app's \(key) of \(limit) bytes (\(remaining) left) before its first launch. "
                    + "Raise \(key) in the app's Info.plist, or schedule the download after the first launch.")
        }
        if request.isEssential { essentialRemaining -= request.fileSize } else { downloadRemaining -= request.fileSize }
    }

    /// Checks the host of a download's URL against the allow list.
    /// - Parameters:
    ///   - host: The host about to be contacted.
    ///   - identifier: The download's identifier, for the message.
    /// - Throws: `BAError` `sessionDownloadDisallowedByDomain` before the first launch for a host not allowed.
    public func checkHost(_ host: String, identifier: String) throws {
        guard let restrictions, !restrictions.domainAllowList.allows(host: host) else { return }
        throw BAError(
            .sessionDownloadDisallowedByDomain,
            message: "The download \(PropertyListText.quote(identifier)) contacts \(PropertyListText.quote(host)), "
                + "which BADownloadDomainAllowList \(PropertyListText.list(restrictions.domainAllowList.entries)) "
                + "does not allow before the app's first launch. Add the host to the list in the app's Info.plist.")
    }

    /// Checks the bytes a transfer has received against what the download declared plus what its pool has left.
    /// - Parameters:
    ///   - request: The admitted download.
    ///   - receivedBytes: The bytes received so far, or the length the server announced.
    /// - Throws: `BAError` `sessionDownloadAllowanceExceeded` before the first launch when the excess does not fit.
    public func checkTransfer(_ request: Request, receivedBytes: Int) throws {
        guard !isLifted else { return }
        let remaining = request.isEssential ? essentialRemaining : downloadRemaining
        // Subtraction, not addition: a hostile declared size near Int.max must not overflow.
        guard max(receivedBytes, 0) - max(request.fileSize, 0) > remaining else { return }
        throw BAError(
            .sessionDownloadAllowanceExceeded,
            message: "The download \(PropertyListText.quote(request.identifier)) "
                + "declared \(request.fileSize) bytes but the server sent \(receivedBytes), more than the app's "
                + "download allowance has left (\(remaining) bytes) before its first launch. "
                + "Declare the file's exact size."
        )
    }

    /// Settles a finished transfer: a size other than the declared one is charged or refunded to its pool.
    /// - Parameters:
    ///   - request: The admitted download.
    ///   - actualBytes: The bytes the transfer really took.
    public mutating func settle(_ request: Request, actualBytes: Int) {
        guard !isLifted, request.fileSize > 0 else { return }
        let actual = max(actualBytes, 0)
        if actual > request.fileSize {
            charge(actual - request.fileSize, essential: request.isEssential)
        } else {
            credit(request.fileSize - actual, essential: request.isEssential)
        }
    }

    /// Gives back the allowance of an admitted download that was cancelled before it transferred anything.
    /// - Parameter request: The admitted download.
    public mutating func refund(_ request: Request) {
        guard request.fileSize > 0 else { return }
        credit(request.fileSize, essential: request.isEssential)
    }

    /// Takes bytes from a pool, never below zero.
    private mutating func charge(_ bytes: Int, essential: Bool) {
        if essential {
            essentialRemaining = max(0, essentialRemaining - bytes)
        } else {
            downloadRemaining = max(0, downloadRemaining - bytes)
        }
    }

    /// Gives bytes back to a pool, never above its Info.plist value (and so never overflowing).
    private mutating func credit(_ bytes: Int, essential: Bool) {
        guard let restrictions else { return }
        let limit = essential ? restrictions.essentialDownloadAllowance : restrictions.downloadAllowance
        let current = essential ? essentialRemaining : downloadRemaining
        let credited = bytes >= limit - current ? limit : current + bytes
        if essential { essentialRemaining = credited } else { downloadRemaining = credited }
    }
}
