/*
Abstract:
What asset-server takes on its command line: each option once, with its value, its limits and its help.
*/

import ArgumentParsing
import AssetServer

extension Options {
    static let host = Option(
        "--host", valueName: "HOST", help: "Address to listen on.", default: AssetServer.Configuration().host)
    static let port = Option<Int>.number(
        "--port", valueName: "PORT", in: 0...65_535, expected: "a port from 0 to 65535",
        help: "TCP port; 0 picks a free one.", defaultDescription: "the port of BAManifestURL in the package's App/Info.plist, else 8080")
    static let catalog = Option(
        "--catalog", valueName: "DIR", help: "Catalog folder.", defaultDescription: ".catalog in the current directory")
    static let sessions = Option<Int>.number(
        "--sessions", valueName: "N", in: 1...10_000, expected: "a session count from 1 to 10000",
        help: "Sessions to generate when DIR has no manifest.", default: Catalog.defaultSessionCount)
    static let sessionSize = Option<Int64>.number(
        "--session-size", valueName: "BYTES", in: 0...(1 << 40), expected: "a size in bytes from 0 to 1 TiB",
        help: "Nominal size of each generated session.", default: Catalog.defaultSessionSize)
    static let throttle = Option<Int64>.number(
        "--throttle", valueName: "BYTES_PER_SEC", in: 1...Int64.max, expected: "a positive byte rate",
        help: "Cap each response body to this rate.")
    static let dropAfter = Option<Int64>.number(
        "--drop-after", valueName: "BYTES", in: 0...Int64.max, expected: "a byte count of 0 or more",
        help: "Close the connection after this many body bytes of a response.")
    // The fault rules and the credentials name their own option and value when they are refused.
    static let fail = Option(
        "--fail", valueName: "PATH=STATUS[xCOUNT]", help: "Answer STATUS for PATH, COUNT times or always.",
        repeatable: true
    ) { text throws(UsageError) in
        do { return try FailureRule(parsing: text) } catch { throw UsageError("\(error)") }
    }
    static let latency = Option<Int>.number(
        "--latency", valueName: "MS", in: 0...600_000, expected: "milliseconds from 0 to 600000",
        help: "Delay every response by MS milliseconds.")
    static let corrupt = Option(
        "--corrupt", valueName: "PATH", help: "Serve PATH with some bytes flipped, same length and validators.",
        repeatable: true
    ) { path throws(UsageError) in
        guard path.hasPrefix("/") else {
            throw UsageError("--corrupt takes a request path starting with /, not \(path.debugDescription).")
        }
        return path
    }
    static let auth = Option(
        "--auth", valueName: "USER:PASSWORD", help: "Require Basic authentication for paths under /protected/."
    ) { text throws(UsageError) in
        do { return try BasicCredentials(parsing: text) } catch { throw UsageError("\(error)") }
    }
    static let maxUploadBytes = Option<Int64>.number(
        "--max-upload-bytes", valueName: "BYTES", in: 0...(1 << 40), expected: "a size in bytes from 0 to 1 TiB",
        help: "The largest upload PUT or POST to /uploads/NAME may send.",
        default: AssetServer.Limits().maximumUploadBytes)
    static let accessLog = Option("--access-log", valueName: "FILE", help: "Append one JSON line per response to FILE.")
    static let tls = Flag("--tls", help: """
        Serve https. Alone, it creates once (and then reuses) a local CA and a certificate for localhost, \
        127.0.0.1 and ::1 in the TLS folder.
        """)
    static let tlsDirectory = Option(
        "--tls-dir", valueName: "DIR", help: "The TLS folder.", defaultDescription: ".tls in the current directory")
    static let tlsCertificate = Option("--tls-cert", valueName: "PEM", help: """
        Serve https with this certificate chain and the key of --tls-key, instead of a local CA.
        """)
    static let tlsKey = Option("--tls-key", valueName: "PEM", help: "The private key of the --tls-cert chain.")
    static let printManifest = Flag("--print-manifest", help: """
        Print a manifest of DIR's audio and video files (sizes, SHA-256) and exit; save it as DIR/manifest.json \
        to serve them as sessions.
        """)
    static let printGameVersion = Option("--print-game-version", valueName: "FILE", help: """
        Print the version file of a game-data archive you bring (size, SHA-256) and exit; save it as \
        version.json beside the archive, under DIR/game/.
        """)
    static let gameVersion = Option<Int>.number(
        "--game-version", valueName: "N", in: 1...Int(Int32.max), expected: "a version from 1",
        help: "The version --print-game-version writes.", default: 1)

    static let signature = CommandSignature(
        name: "asset-server",
        abstract: """
            Serves a catalog over HTTP/1.1: a folder with a manifest.json and the files it lists. A missing or
            empty folder gets a synthetic catalog of WWDC session videos; a folder that already holds files is
            served as it is (any path under it can be requested), and nothing is written into it but what clients
            PUT or POST to /uploads/NAME, which goes to its uploads folder.
            """,
        discussion: """
            The first line on standard output is "asset-server listening on http://HOST:PORT" (https with --tls);
            with a local CA, a later line is "asset-server CA certificate: PATH", the file a device trusts
            with backgroundassets-debug trust add PATH.
            Exit codes: 0 after SIGINT or SIGTERM, 1 when the catalog or address cannot be used, 64 for bad options.
            """,
        usage: "[options]",
        // Static declarations share their names with the values they fill, as swift-argument-parser's
        // properties do; `Self.` picks the declaration.
        arguments: [
            Self.host, Self.port, Self.catalog, Self.sessions, Self.sessionSize, Self.throttle, Self.dropAfter, Self.fail,
            Self.latency, Self.corrupt, Self.auth, Self.maxUploadBytes, Self.accessLog, Self.tls, Self.tlsDirectory, Self.tlsCertificate,
            Self.tlsKey, Self.printManifest, Self.printGameVersion, Self.gameVersion,
        ])
}
