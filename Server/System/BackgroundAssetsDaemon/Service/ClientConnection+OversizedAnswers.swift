/*
Abstract:
An answer too large for one frame reaches the client as a failure naming the limit, not as a closed connection.
*/

import BackgroundAssetsIPC

extension ClientConnection {
    /// The frame of a message; an answer larger than ``WireProtocol/maximumFrameSize`` becomes a
    /// `failure` that says so, and names the paged requests that carry any count of downloads.
    static func frame(_ message: ServerMessage) throws -> [UInt8] {
        do {
            return try MessageCodec.frame(message)
        } catch let IPCError.frameTooLarge(size, limit) {
            guard case let .response(id, _) = message else { throw IPCError.frameTooLarge(size: size, limit: limit) }
            let failure = WireFailure.backgroundAssets(
                code: BAError.Code.callerConnectionInvalid.rawValue,
                message: "The answer is \(size) bytes, more than the \(limit)-byte frame the protocol allows (WireProtocol.maximumFrameSize); "
                    + "ask for long lists in pages (downloads.fetchCurrentDownloadsPage, core.fetchDownloadStatuses).")
            return try MessageCodec.frame(ServerMessage.response(id: id, response: .failure(failure)))
        }
    }
}
