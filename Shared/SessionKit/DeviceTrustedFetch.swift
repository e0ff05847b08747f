/*
Abstract:
A small https GET that trusts the CAs installed on the device, for the app's own requests on Linux.
*/

// Linux only: URLSession on Apple platforms trusts the CAs a device has installed; here it cannot,
// so the app's own https requests come through this instead.
#if !canImport(Darwin)
import BackgroundAssetsIPC
import Foundation
import TLS

/// Fetches a small resource (a manifest) over https, trusting the system's CAs plus the device's
/// (`system/trust/`, added with `backgroundassets-debug trust add`).
///
/// On Apple platforms `URLSession` trusts the CAs of installed profiles; on Linux, FoundationNetworking's
/// `URLSession` uses libcurl's own CA bundle and offers no way to add one, so the app's https
/// requests go through this instead. Plain http URLs keep using `URLSession`.
public enum DeviceTrustedFetch {
    /// Why a fetch failed.
    public struct Failure: LocalizedError, CustomStringConvertible {
        public var description: String
        public var errorDescription: String? { description }
    }

    /// The body of a 200 response, following up to five https redirects.
    /// - Parameters:
    ///   - url: An https URL.
    ///   - paths: The device whose trusted CAs to use.
    ///   - timeout: The deadline for connecting, the handshake, and each read.
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
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        let files = ((try? FileManager.default.contentsOfDirectory(at: paths.trustDirectory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "pem" }
        let context = try TLSClientContext(extraCAFiles: files)
        let descriptor = try connect(host: host, port: port)
        defer { close(descriptor) }
        let stream = try TLSStream.connect(descriptor: descriptor, context: context, host: host, port: port, timeoutMilliseconds: milliseconds)
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        let hostField = url.port.map { "\(rawHost):\($0)" } ?? rawHost
        // HTTP/1.0 with Connection: close: the body ends where the connection does, never chunked.
        let request = Array("GET \(target) HTTP/1.0\r\nHost: \(hostField)\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n".utf8)
        try request.withUnsafeBytes { try stream.write($0, timeoutMilliseconds: milliseconds) }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, timeoutMilliseconds: milliseconds) }
            switch read {
            case let .bytes(count): response.append(contentsOf: buffer.prefix(count))
            case .closed: break
            case .timedOut: throw Failure(description: "\(url.absoluteString) sent nothing for \(timeout)")
            }
            if read == .closed { break }
            guard response.count <= 16 << 20 else { throw Failure(description: "\(url.absoluteString) is larger than 16 MiB") }
        }
        guard let end = response.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "\(url.absoluteString) did not answer with HTTP")
        }
        let head = String(decoding: response[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head.first?.split(separator: " ") ?? []
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "\(url.absoluteString) answered with a malformed status line")
        }
        if [301, 302, 303, 307, 308].contains(status) {
            let location = head.dropFirst().first { $0.lowercased().hasPrefix("location:") }?.dropFirst(9).trimmingCharacters(in: .whitespaces)
            guard redirects > 0, let location, let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                throw Failure(description: "\(url.absoluteString) redirected too often or without a Location")
            }
            return try fetch(next, paths: paths, timeout: timeout, redirects: redirects - 1)
        }
        return (Data(response[end.upperBound...]), status)
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else {
            throw Failure(description: "could not resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { continue }
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
            close(descriptor)
        }
        throw Failure(description: "could not connect to \(host):\(port)")
    }
}
#endif
