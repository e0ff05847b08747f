/*
Abstract:
A TLS server and client joined by a socket pair, for handshake tests without a network.
*/

import Foundation
import TLS

/// Runs a server handshake on one end of a socket pair and a client handshake on the other.
enum TLSPair {
    struct Outcome {
        var client: Result<TLSStream, TLSError>
        var server: Result<TLSStream, TLSError>
        var descriptors: (Int32, Int32)
    }

    static func handshake(
        server: TLSServerContext, client: TLSClientContext, host: String, port: Int = 443,
        timeoutMilliseconds: Int32 = 5000
    ) -> Outcome {
        // -1, not 0: should the call fail, closing these must not close descriptor 0, or whatever took its number.
        var pair: [Int32] = [-1, -1]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        let serverEnd = pair[1]
        nonisolated(unsafe) var serverResult: Result<TLSStream, TLSError>?
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            serverResult = Result { () throws(TLSError) in
                try TLSStream.accept(descriptor: serverEnd, context: server, timeoutMilliseconds: timeoutMilliseconds)
            }
            // A refused client closes; the server's end must not wait for it.
            if case .failure = serverResult { shutdown(serverEnd, Int32(SHUT_RDWR)) }
            done.signal()
        }
        let clientResult = Result { () throws(TLSError) in
            try TLSStream.connect(descriptor: pair[0], context: client, host: host, port: port, timeoutMilliseconds: timeoutMilliseconds)
        }
        if case .failure = clientResult { shutdown(pair[0], Int32(SHUT_RDWR)) }
        done.wait()
        return Outcome(client: clientResult, server: serverResult!, descriptors: (pair[0], pair[1]))
    }

    /// Writes an issued certificate's files into `folder` and returns the matching contexts.
    static func files(_ issued: IssuedCertificate, in folder: URL, name: String) throws -> (certificate: URL, key: URL) {
        let certificate = folder.appending(path: "\(name).pem")
        let key = folder.appending(path: "\(name)-key.pem")
        try issued.certificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
        try issued.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        return (certificate, key)
    }
}
