/*
Abstract:
Serving over TLS: which certificate and key, and the handshake each connection makes on its own thread.
*/

import Foundation
import ServerRuntime
import TLS

extension AssetServer {
    /// The certificate chain and private key of a server that speaks https.
    public struct TLSFiles: Sendable, Equatable {
        /// A PEM file: the server's certificate, then any intermediates.
        public var certificateChain: URL
        /// The PEM file of its private key.
        public var privateKey: URL

        public init(certificateChain: URL, privateKey: URL) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }
}

extension Connection {
    /// The answer to a client that speaks plain http to the TLS port, sent in the clear so it can read it.
    private static let plainHTTPAnswer = Array("""
        HTTP/1.1 400 Bad Request\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Length: 46\r
        Connection: close\r
        \r
        This server speaks https; use an https:// URL.
        """.utf8)

    /// Performs the server handshake within the request head deadline, on this connection's own
    /// thread, so a client that stalls in the handshake holds up no one else.
    /// - Returns: The TLS stream, or `nil` when the client did not complete a handshake (then the
    ///   caller closes the socket).
    func acceptTLS(_ tls: TLSServerContext) -> TLSStream? {
        let descriptor = stream.descriptor
        let deadline = context.clock.now() &+ context.requestHeadTimeout
        var first: UInt8 = 0
        while true {
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = context.clock.poll(&entries, until: deadline)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            if entries[0].revents == 0 { continue }
            let peeked = recv(descriptor, &first, 1, Int32(MSG_PEEK))
            if peeked == 1 { break }
            if peeked < 0, errno == EINTR || errno == EAGAIN { continue }
            return nil
        }
        // A TLS record starts with 0x16 (handshake); a letter is an http request sent to the wrong scheme.
        if first != 0x16, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
            var ignored: Int64 = 0
            try? stream.send(Self.plainHTTPAnswer, stallTimeout: context.sendStallTimeout, sent: &ignored)
            return nil
        }
        do {
            return try TLSStream.accept(descriptor: descriptor, context: tls,
                                        timeoutMilliseconds: context.clock.millisecondsUntil(deadline))
        } catch {
            context.logger.info("TLS handshake failed: \(error.message)")
            return nil
        }
    }
}
