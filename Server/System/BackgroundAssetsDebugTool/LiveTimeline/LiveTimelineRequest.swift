/*
Abstract:
Reads a request head for the live timeline's server: its method, path and Host, refusing anything malformed.
*/

import Foundation

/// What the live timeline's server needs of a request: the method, the path without its query, and the host.
///
/// The asset server has a full request parser (bodies, ranges, validators, smuggling defences); this
/// server takes only GET and HEAD of two paths on the loopback interface, so it reads the request
/// line and the Host field and nothing else, rather than pull the CDN's library into the device's tool.
struct LiveTimelineRequest: Equatable, Sendable {
    var method: String
    var path: String
    var host: String?

    /// The most bytes a head may take before the server gives up on it.
    static let maximumHeadLength = 16 * 1024

    /// Why a head was refused: the status and a sentence for the answer's body.
    struct Refusal: Error, Equatable {
        var status: Int
        var reason: String
        var sentence: String

        static func badRequest(_ sentence: String) -> Refusal {
            Refusal(status: 400, reason: "Bad Request", sentence: sentence)
        }
    }

    /// Parses a complete head.
    /// - Throws: ``Refusal`` naming what is wrong with it.
    init(head: [UInt8]) throws(Refusal) {
        // Printable ASCII, tabs and line ends only: anything else is not an HTTP/1 head.
        guard head.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            throw .badRequest("the request head has bytes that are not printable ASCII.")
        }
        // Split as bytes: in a String, CR LF is a single Character.
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            Substring(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        // RFC 9112 section 2.2: empty lines before the request line are ignored.
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { throw .badRequest("the request is empty.") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter && $0.isUppercase }) else {
            throw .badRequest("the request line is not METHOD /path HTTP/1.1.")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw .badRequest("the request line names \(parts[2].prefix(16)), and this server speaks HTTP/1.1.")
        }
        guard parts[1].hasPrefix("/") else {
            throw .badRequest("the request target must be a path starting with /.")
        }
        method = String(parts[0])
        path = String(parts[1].prefix { $0 != "?" && $0 != "#" })
        var hosts: [String] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else {
                throw .badRequest("a header field is not NAME: VALUE.")
            }
            if line[..<colon].lowercased() == "host" {
                hosts.append(line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"]))
            }
        }
        // RFC 9112 section 3.2: an HTTP/1.1 request carries exactly one Host.
        guard hosts.count <= 1, hosts.count == 1 || parts[2] == "HTTP/1.0" else {
            throw .badRequest("an HTTP/1.1 request needs exactly one Host field.")
        }
        host = hosts.first
    }

    /// Whether the Host names this machine's loopback interface, the only name the server answers to:
    /// a page elsewhere that rebinds its own name to 127.0.0.1 still sends its own name, and is refused.
    var isAddressedToLoopback: Bool {
        guard let host else { return true }
        let name: Substring
        if host.hasPrefix("[") {
            name = host.prefix { $0 != "]" } + "]"
        } else {
            name = host.prefix { $0 != ":" }
        }
        return ["127.0.0.1", "localhost", "[::1]"].contains(name.lowercased())
    }
}
