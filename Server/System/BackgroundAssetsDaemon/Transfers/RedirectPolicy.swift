/*
Abstract:
Which redirects a download follows: every hop obeys the rules its own URL obeyed when it was scheduled.
*/

import BackgroundAssetsIPC
import Foundation
import HTTPCore

/// Decides whether a transfer may follow a redirect, and where to.
///
/// A server's `Location` is the one URL nobody checked: the service checked the download's URL when
/// the app scheduled it, and a redirect must not get around that. So each hop must be
/// - an http or https URL with a host and a valid port (``RequestTarget``): `file:`, `mailto:`,
///   `data:` or `http:///x` can never be fetched;
/// - https, or http on this machine (`localhost`, `127.0.0.0/8`, `::1`), the rule of
///   `DownloadDescriptor.urlProblem(_:)`;
/// - never a step down from https to http, even to this machine: a remote server must not turn a
///   secure download into a plain one, nor point it at a plain service on the device;
/// - a host in the app's `BADownloadDomainAllowList` before its first launch, the question
///   `DownloadAllowance.checkHost(_:identifier:)` asks of the first URL;
/// - within ``maximumRedirects`` hops.
///
/// Every refusal is a failure no retry can fix: the download fails at once with its reason.
struct RedirectPolicy: Sendable {
    /// Follow at most this many redirects.
    var maximumRedirects: Int
    /// The hosts a redirect may lead to, before the app's first launch; `nil` allows any.
    var allowedHosts: DomainAllowList?

    /// The URL a redirect answer leads to, once every rule allows it.
    /// - Parameters:
    ///   - head: The 3xx answer.
    ///   - url: The URL that answered it.
    ///   - hops: How many redirects this one makes, counting from 1.
    /// - Returns: The absolute URL to fetch next.
    /// - Throws: ``TransferError``: `.tooManyRedirects`, `.malformedResponse` (no usable `Location`),
    ///   `.unsupportedURL`, `.insecureRedirect` or `.disallowedHost`.
    func follow(_ head: HTTPResponseHead, from url: URL, hops: Int) throws(TransferError) -> URL {
        let from = url.absoluteString
        guard hops <= maximumRedirects else {
            throw TransferError(.remote, .tooManyRedirects, "\(from) redirected more than \(maximumRedirects) times in a row")
        }
        guard let location = head["Location"], !location.isEmpty,
              let next = URL(string: location, relativeTo: url)?.absoluteURL else {
            let given = head["Location"].map { " (\($0.debugSummary))" } ?? ""
            throw TransferError(.remote, .malformedResponse, "a \(head.status) redirect from \(from) has no usable Location\(given)")
        }
        let target = try RequestTarget(next, subject: "\(from) redirected to \(next.absoluteString.debugSummary), which")
        let to = next.absoluteString.debugSummary
        if url.scheme?.lowercased() == "https", !target.isSecure {
            throw TransferError(.remote, .insecureRedirect, "\(from) redirected to \(to), which leaves https for plain http; "
                + "the server must redirect to an https URL")
        }
        if !target.isSecure, !DownloadDescriptor.isLoopback(host: target.host) {
            throw TransferError(.remote, .insecureRedirect, "\(from) redirected to \(to), which is plain http on a host that is not "
                + "this machine; downloads use https (http only on localhost), so the server must redirect to an https URL")
        }
        if let allowedHosts, !allowedHosts.allows(host: target.host) {
            throw TransferError(.remote, .disallowedHost(target.host), "\(from) redirected to \(to), whose host "
                + "\(PropertyListText.quote(target.host)) BADownloadDomainAllowList \(PropertyListText.list(allowedHosts.entries)) does not allow before the app's first launch; "
                + "add the host to the list in the app's Info.plist")
        }
        return next
    }
}
