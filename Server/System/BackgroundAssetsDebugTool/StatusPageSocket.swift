/*
Abstract:
A connection of the debug tool's own that asks for status pages and keeps each answer's bytes as they came.
*/

import BackgroundAssetsIPC
import Foundation

/// Asks the service for pages of `status` downloads and hands back each answer's payload undecoded,
/// for `status --json` to lay out (``StatusPageBytes``).
///
/// The tool's ``ServiceClient`` connection decodes every answer into values on its reader thread;
/// the pages, which hold nearly all of a large status, skip that here. The service is already
/// running when this connects: the `status` answer came first, over the ordinary connection.
final class StatusPageSocket {
    private let socket: UnixSocket
    private var decoder = FrameDecoder()
    private var nextID: UInt64 = 1

    /// Connects and introduces itself as the tool.
    /// - Throws: ``DebugToolError`` when the service cannot be reached or refuses the connection.
    init(socketPath: String, hello: Hello) throws(DebugToolError) {
        do {
            socket = try UnixSocket.connect(to: socketPath)
        } catch {
            throw DebugToolError("The Background Assets service is not reachable at \(socketPath) for the next page of downloads (\(error)).")
        }
        let answer = try ask(.hello(hello))
        guard case let .response(_, response)? = try? MessageCodec.decode(ServerMessage.self, from: answer) else {
            throw DebugToolError("The service answered hello with a message this tool cannot read; rebuild the tool and the service from the same sources.")
        }
        if case let .failure(failure) = response { throw DebugToolError(failure.message) }
    }

    deinit {
        socket.close()
    }

    /// The page of downloads after a cursor.
    /// - Parameter after: The cursor the `status` answer or the previous page gave.
    /// - Throws: ``DebugToolError`` when the connection fails, the service refuses, or the answer is not a page.
    func page(after: Int64) throws(DebugToolError) -> StatusPageBytes {
        let payload = try ask(.core(.fetchDownloadStatuses(after: after)))
        guard let page = try StatusPageBytes.parse(payload) else {
            throw DebugToolError("The service sent an event instead of the page of downloads after row \(after).")
        }
        return page
    }

    /// Sends one request and returns the payload of the next frame, which is its answer: this
    /// connection asks for no events and waits for each answer before the next request.
    private func ask(_ request: ClientRequest) throws(DebugToolError) -> [UInt8] {
        let id = nextID
        nextID += 1
        do {
            try socket.send(MessageCodec.frame(ClientMessage(id: id, request: request)))
            while true {
                if let payload = try decoder.nextFrame() { return payload }
                let bytes = try socket.receive(maximumLength: 1 << 20)
                guard !bytes.isEmpty else { throw DebugToolError("The service closed the connection before answering.") }
                decoder.append(bytes)
            }
        } catch let error as DebugToolError {
            throw error
        } catch {
            throw DebugToolError("Asking the service for the next page of downloads failed: \(error)")
        }
    }
}
