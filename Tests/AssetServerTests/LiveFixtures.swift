/*
Abstract:
Shared helpers of the live asset-server tests: the manifest as it travels, URLSession and raw requests.
*/

import Foundation
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The manifest as the server sends it, decoded independently of SessionKit so the tests check the wire format.
struct LiveManifest: Decodable, Equatable {
    struct Entry: Decodable, Equatable {
        var id: String
        var title: String
        var url: String
        var fileSize: Int64
        var sha256: String
        var essential: Bool
        var thumbnailURL: String?

        /// The request path of the file, resolved against `/manifest.json`.
        var path: String {
            url.hasPrefix("/") ? url : "/" + url
        }
    }

    var version: Int
    var sessions: [Entry]
}

extension AssetServerProcess {
    /// Sends one request on a new connection and reads the response.
    func raw(
        _ method: String = "GET",
        _ target: String,
        headers: KeyValuePairs<String, String> = [:]
    ) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        return try await client.request(method, target, headers: headers)
    }

    /// Fetches and decodes `/manifest.json`.
    func manifest() async throws -> LiveManifest {
        let response = try await raw("GET", "/manifest.json")
        guard response.statusCode == 200 else {
            throw TestSupportError("GET /manifest.json answered \(response.statusCode) instead of 200.")
        }
        return try JSONDecoder().decode(LiveManifest.self, from: Data(response.body))
    }

    /// The first session of the manifest and its bytes on disk.
    func firstSession() async throws -> (entry: LiveManifest.Entry, bytes: [UInt8]) {
        guard let entry = try await manifest().sessions.first else {
            throw TestSupportError("The manifest of \(catalogURL.path) lists no sessions.")
        }
        return (entry, try fileBytes(entry.path))
    }

    /// The bytes of a catalog file, read from disk.
    func fileBytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: catalogURL.appendingPathComponent(String(path.dropFirst()))))
    }

    /// Writes a file into the served catalog.
    @discardableResult
    func writeFile(_ path: String, _ bytes: [UInt8]) throws -> URL {
        let url = catalogURL.appendingPathComponent(String(path.dropFirst()))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }
}

/// Well-formed requests through URLSession, as an app would send them.
enum LiveHTTP {
    /// A session with no cache and no cookies, so every request reaches the server as written.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    /// Sends a request and returns the body and the HTTP response.
    static func fetch(
        _ url: URL,
        method: String = "GET",
        headers: [String: String] = [:]
    ) async throws -> (body: [UInt8], response: HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw TestSupportError("\(url) did not answer with an HTTP response.")
        }
        return (Array(data), http)
    }
}

/// Deterministic bytes for files the tests write themselves.
func patternBytes(count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) }
}

/// The SHA-256 of a file as `sha256sum` reports it, in lowercase hex.
func sha256sum(_ url: URL) async throws -> String {
    let result = try await runCommand("sha256sum", arguments: [url.path])
    guard result.status.isSuccess, let hex = result.standardOutput.split(separator: " ").first else {
        throw TestSupportError("sha256sum \(url.path) failed: \(result.standardError)")
    }
    return String(hex)
}
