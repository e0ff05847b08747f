/*
Abstract:
A failure of the shared HTTP layer as a transfer's error: the same words, placed where it arose.
*/

import HTTPCore

extension TransferError {
    /// The transfer's error for a failure of the connection, the response reader or the head parser.
    ///
    /// The message is kept as it is; the kind decides whether the queue retries.
    init(_ error: HTTPError) {
        switch error.kind {
        case .connectionFailed: self.init(.transport, .connectionFailed, error.message)
        case .connectionLost: self.init(.transport, .connectionLost, error.message)
        case .timedOut: self.init(.transport, .stalled, error.message)
        case let .certificate(problem): self.init(.transport, .certificate(problem), error.message)
        case .secureConnectionFailed: self.init(.transport, .secureConnectionFailed, error.message)
        case .malformedResponse: self.init(.remote, .malformedResponse, error.message)
        case .cancelled: self.init(.transport, .cancelled, error.message)
        }
    }

    /// Runs a call of the HTTP layer, reporting its failure as the transfer's.
    static func catching<Result>(_ body: () throws(HTTPError) -> Result) throws(TransferError) -> Result {
        do {
            return try body()
        } catch {
            throw TransferError(error)
        }
    }
}
