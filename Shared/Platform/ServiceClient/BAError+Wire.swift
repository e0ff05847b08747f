/*
Abstract:
Converts errors to and from the wire form the service sends in failures and failed events.
*/

import BackgroundAssetsIPC
import Foundation

extension BAError {
    /// Creates the error a wire failure in ``BAErrorDomain`` stands for, or `nil` for another domain or
    /// an unknown code.
    /// - Parameter failure: A failure the service sent.
    package init?(_ failure: WireFailure) {
        guard failure.domain == BAErrorDomain, let code = Code(rawValue: failure.code) else { return nil }
        self.init(code, message: failure.message)
    }

    /// The error's wire form.
    package var wireFailure: WireFailure {
        .backgroundAssets(code: code.rawValue, message: message)
    }
}

extension WireFailure {
    /// The error a delegate receives for this failure: a ``BAError``, a `URLError`, or an `NSError`.
    /// - Returns: An error with the failure's domain, code, and message.
    package func makeError() -> any Error {
        if let error = BAError(self) { return error }
        let userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if domain == WireFailure.urlDomain {
            return URLError(URLError.Code(rawValue: code) ?? .unknown, userInfo: userInfo)
        }
        return NSError(domain: domain, code: code, userInfo: userInfo)
    }
}
