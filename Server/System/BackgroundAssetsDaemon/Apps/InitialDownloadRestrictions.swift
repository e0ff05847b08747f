/*
Abstract:
BAInitialDownloadRestrictions: the allowances and domain allow list that bind an app's extension until the first launch.
*/

/// The `BAInitialDownloadRestrictions` dictionary of an app's Info.plist.
///
/// Until the app is first launched, the extension may schedule at most ``downloadAllowance`` bytes of
/// non-essential downloads and ``essentialDownloadAllowance`` bytes of essential ones, only from hosts
/// that ``domainAllowList`` allows. ``DownloadAllowance`` does the accounting.
public struct InitialDownloadRestrictions: Sendable, Equatable, Codable {
    /// The Info.plist key of this dictionary.
    public static let key = "BAInitialDownloadRestrictions"

    /// `BADownloadAllowance`: the combined size, in bytes, of the non-essential downloads before the first launch.
    public var downloadAllowance: Int
    /// `BAEssentialDownloadAllowance`: the combined size, in bytes, of the essential downloads.
    public var essentialDownloadAllowance: Int
    /// `BADownloadDomainAllowList`: the hosts downloads may come from before the first launch.
    public var domainAllowList: DomainAllowList

    /// Creates restrictions from values already validated.
    /// - Parameters:
    ///   - downloadAllowance: The non-essential allowance in bytes.
    ///   - essentialDownloadAllowance: The essential allowance in bytes.
    ///   - domainAllowList: The allowed hosts.
    public init(downloadAllowance: Int, essentialDownloadAllowance: Int, domainAllowList: DomainAllowList) {
        self.downloadAllowance = downloadAllowance
        self.essentialDownloadAllowance = essentialDownloadAllowance
        self.domainAllowList = domainAllowList
    }

    /// Reads and validates the dictionary.
    ///
    /// - Note: Apple documents both allowances as required and describes them separately (essential
    ///   downloads count against `BAEssentialDownloadAllowance`, the rest against `BADownloadAllowance`).
    ///   This stand-in also requires the essential allowance not to exceed the total one, the
    ///   relation Apple's sample and App Store Connect assume, so a typo of a digit is caught at install.
    init(reading plist: PropertyListReader) throws {
        let restrictions = try plist.dictionary(Self.key)
        let total = try restrictions.integer("BADownloadAllowance")
        guard total > 0 else {
            throw AppBundleError(
                file: plist.file, key: restrictions.keyPath("BADownloadAllowance"), value: String(total),
                problem: "it must be a positive number of bytes",
                remedy: "Set it to the combined size of the downloads your extension schedules before the first launch."
            )
        }
        let essential = try restrictions.integer("BAEssentialDownloadAllowance")
        guard essential >= 0, essential <= total else {
            throw AppBundleError(
                file: plist.file, key: restrictions.keyPath("BAEssentialDownloadAllowance"), value: String(essential),
                problem: "it must be between 0 and BADownloadAllowance (\(total)) bytes",
                remedy: "Set it to the combined size of your essential downloads, at most BADownloadAllowance."
            )
        }
        let listKey = "BADownloadDomainAllowList"
        let entries = try restrictions.strings(listKey)
        guard !entries.isEmpty else {
            throw AppBundleError(
                file: plist.file, key: restrictions.keyPath(listKey), value: "an empty array",
                problem: "it must list at least the host of BAManifestURL",
                remedy: "Add the host names your downloads come from, such as cdn.example.com or *.example.com."
            )
        }
        let list: DomainAllowList
        do {
            list = try DomainAllowList(entries)
        } catch let invalid as DomainAllowList.InvalidEntry {
            throw AppBundleError(
                file: plist.file, key: "\(restrictions.keyPath(listKey))[\(invalid.index)]",
                value: PropertyListText.quote(invalid.entry),
                problem: "each entry must be a host name, or \"*.\" followed by a domain with a dot",
                remedy: "Write hosts without a scheme, port or path, such as cdn.example.com or *.example.com."
            )
        }
        self.init(downloadAllowance: total, essentialDownloadAllowance: essential, domainAllowList: list)
    }
}
