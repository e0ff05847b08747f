/*
Abstract:
The downloads an extension's entry point returns in parts, kept with its running call until the call returns with the rest.
*/

import BackgroundAssetsIPC

/// Why a part of a call's answer was refused.
enum ReturnedPartRefusal: Error, Equatable {
    /// No call with that id runs on the connection: it timed out, or it already returned.
    case noSuchCall
    /// The parts together would hold more than ``ExtensionCallLifecycle/maximumReturnedDownloads``.
    case tooMany(Int)
}

extension ExtensionCallLifecycle {
    /// The most downloads one call's parts may hold together: the parts wait in the service's memory
    /// until the call returns, so an extension that never stops sending must not grow it without bound.
    static let maximumReturnedDownloads = 1_000_000
}

extension ExtensionCallLifecycle.Return {
    /// What the call returned with the parts it sent before: the parts' downloads come first. Parts
    /// followed by anything but downloads are dropped with the call.
    func result(withParts result: ExtensionCallResult) -> ExtensionCallResult {
        guard !returnedParts.isEmpty, case let .downloads(rest) = result else { return result }
        return .downloads(returnedParts + rest)
    }
}
