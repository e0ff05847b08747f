/*
Abstract:
A small https GET that trusts the CAs installed on the device, for the app's own requests on Linux.
*/

// Linux only: URLSession on Apple platforms trusts the CAs a device has installed; here it cannot,
// so the app's own https requests come through this instead.
#if !canImport(Darwin)
import BackgroundAssetsIPC
import Foundation
import HTTPCore
import TLS

/// Fetches a small resource (a manifest) over https, trusting the system's CAs plus the device's
/// (`system/trust/`, added with `backgroundassets-debug trust add`).
///
/// On Apple platforms `URLSession` trusts the CAs of installed profiles; on Linux, FoundationNetworking's
/// `URLSession` uses libcurl's own CA bundle and offers no way to add one, so the app's https
/// requests go through this instead. Plain http URLs keep using `URLSession`. The connection and
/// the reading and checking of the answer are the service's own (`HTTPCore`), so a server that
/// drips its head, sends a malformed one or compresses the body is refused here as it is there.
public enum DeviceTrustedFetch {
    /// Why a fetch failed.
    public struct Failure: LocalizedError, CustomStringConvertible {
        public var description: String
        public var errorDescription: String? { description }
    }

    /// The largest body accepted: a manifest is a few kilobytes, and 26 MB with 100,000 sessions.
    static let maximumLength = 64 << 20

    /// The body of a 200 response, following up to five https redirects.
    /// - Parameters:
    ///   - url: An https URL.
    ///   - paths: The device whose trusted CAs to use.
    ///   - timeout: The deadline for connecting, the handshake, the whole response head, and each silence after it.
    public static func data(from url: URL, paths: DevicePaths = .current(), timeout: Duration = .seconds(15)) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try fetch(url, paths: paths, timeout: timeout, redirects: 5) })
            }
        }
    }

    private static func fetch(_ url: URL, paths: DevicePaths, timeout: Duration, redirects: Int) throws -> (Data, Int) {
        guard url.scheme?.lowercased() == "https", let rawHost = url.host(), !rawHost.isEmpty else {
            throw Failure(description: "\(url.absoluteString) is not an https URL")
        }
        let host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = url.port ?? 443
        // Fractions count: half a second is 500 ms, not the 0 ms its whole seconds would give.
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let files = ((try? FileManager.default.contentsOfDirectory(at: paths.trustDirectory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "pem" }
        let context = try TLSClientContext(extraCAFiles: files)
        do {
            let connection = try HTTPConnection(host: host, port: port, timeoutMilliseconds: milliseconds)
            try connection.startTLS(context: context, host: host, port: port, timeoutMilliseconds: milliseconds)
            try connection.send(request(for: url, host: rawHost), timeoutMilliseconds: milliseconds)
            let reader = HTTPResponseReader(connection: connection, stallMilliseconds: milliseconds)
            let head = try reader.readHead()
            if [301, 302, 303, 307, 308].contains(head.status) {
                guard redirects > 0, let location = head["Location"],
                      let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw Failure(description: "\(url.absoluteString) redirected too often or without a Location")
                }
                return try fetch(next, paths: paths, timeout: timeout, redirects: redirects - 1)
            }
            return (try body(of: head, from: reader, url: url), head.status)
        } catch let error as HTTPError {
            throw Failure(description: "\(url.absoluteString): \(error.message)")
        }
    }

    /// HTTP/1.0 with `Connection: close`: the body ends at its length or where the connection does,
    /// and is never chunked.
    private static func request(for url: URL, host: String) -> [UInt8] {
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        let hostField = url.port.map { "\(host):\($0)" } ?? host
        return Array("GET \(target) HTTP/1.0\r\nHost: \(hostField)\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n".utf8)
    }

    private static func body(of head: HTTPResponseHead, from reader: HTTPResponseReader, url: URL) throws -> Data {
        if head.isChunked {
            throw Failure(
                description: "\(url.absoluteString) answered an HTTP/1.0 request with a chunked body, which HTTP/1.0 does not have")
        }
        if let coding = head.unrequestedCoding {
            throw Failure(description: "\(url.absoluteString) answered with \(coding) although the request asked for identity")
        }
        let declared = try head.contentLength()
        if let declared, declared > maximumLength {
            throw Failure(description: "\(url.absoluteString) is larger than \(maximumLength >> 20) MiB")
        }
        var body = Data()
        while declared.map({ Int64(body.count) < $0 }) ?? true {
            let maximum = declared.map { Int(min(Int64(reader.capacity), $0 - Int64(body.count))) } ?? reader.capacity
            guard let piece = try reader.receive(maximum: maximum) else {
                guard let declared else { break }
                throw Failure(description: "\(url.absoluteString) ended after \(body.count) of \(declared) bytes")
            }
            body.append(contentsOf: piece)
            guard body.count <= maximumLength else {
                throw Failure(description: "\(url.absoluteString) is larger than \(maximumLength >> 20) MiB")
            }
        }
        return body
    }
}
#endif
