/*
Abstract:
The asset-server command line: each option declared once, on the property it fills, with its value, its limits and its help.
*/

import ArgumentParsing
import AssetServer

/// The options of one `asset-server` run.
struct Options: ParsableArguments {
    @Option("--host", valueName: "HOST", help: "Address to listen on.")
    var host = AssetServer.Configuration().host
    @Option(
        "--port", valueName: "PORT", help: "TCP port; 0 picks a free one.",
        defaultDescription: "the port of BAManifestURL in the package's App/Info.plist, else 8080",
        as: .number(in: 0...65_535, expected: "a port from 0 to 65535"))
    var port: Int?
    @Option("--catalog", valueName: "DIR", help: "Catalog folder.", defaultDescription: ".catalog in the current directory")
    var catalog: String?
    @Option(
        "--sessions", valueName: "N", help: "Sessions to generate when DIR has no manifest.",
        as: .number(in: 1...Catalog.maximumSessionCount, expected: "a session count from 1 to \(Catalog.maximumSessionCount)"))
    var sessionCount = Catalog.defaultSessionCount
    @Option(
        "--session-size", valueName: "BYTES", help: "Nominal size of each generated session.",
        as: .number(in: 0...(1 << 40), expected: "a size in bytes from 0 to 1 TiB"))
    var sessionSize = Catalog.defaultSessionSize
    @Option(
        "--throttle", valueName: "BYTES_PER_SEC", help: "Cap each response body to this rate.",
        as: .number(in: 1...Int64.max, expected: "a positive byte rate"))
    var throttle: Int64?
    @Option(
        "--drop-after", valueName: "BYTES", help: "Close the connection after this many body bytes of a response.",
        as: .number(in: 0...Int64.max, expected: "a byte count of 0 or more"))
    var dropAfter: Int64?
    // The fault rules and the credentials name their own option and value when they are refused.
    @Option(
        "--fail", valueName: "PATH=STATUS[xCOUNT]", help: "Answer STATUS for PATH, COUNT times or always.",
        as: ArgumentConversion { text throws(UsageError) in
            do { return try FailureRule(parsing: text) } catch { throw UsageError("\(error)") }
        })
    var fail: [FailureRule]
    @Option(
        "--latency", valueName: "MS", help: "Delay every response by MS milliseconds.",
        as: .number(in: 0...600_000, expected: "milliseconds from 0 to 600000"))
    var latency: Int?
    @Option(
        "--corrupt", valueName: "PATH", help: "Serve PATH with some bytes flipped, same length and validators.",
        as: ArgumentConversion { path throws(UsageError) in
            guard path.hasPrefix("/") else {
                throw UsageError("--corrupt takes a request path starting with /, not \(path.debugDescription).")
            }
            return path
        })
    var corrupt: [String]
    @Option(
        "--auth", valueName: "USER:PASSWORD", help: "Require Basic authentication for paths under /protected/.",
        as: ArgumentConversion { text throws(UsageError) in
            do { return try BasicCredentials(parsing: text) } catch { throw UsageError("\(error)") }
        })
    var auth: BasicCredentials?
    @Option(
        "--max-upload-bytes", valueName: "BYTES", help: "The largest upload PUT or POST to /uploads/NAME may send.",
        as: .number(in: 0...(1 << 40), expected: "a size in bytes from 0 to 1 TiB"))
    var maxUploadBytes = AssetServer.Limits().maximumUploadBytes
    @Option("--access-log", valueName: "FILE", help: "Append one JSON line per response to FILE.")
    var accessLog: String?
    @Flag("--tls", help: """
        Serve https. Alone, it creates once (and then reuses) a local CA and a certificate for localhost, \
        127.0.0.1 and ::1 in the TLS folder.
        """)
    var tls: Bool
    @Option("--tls-dir", valueName: "DIR", help: "The TLS folder.", defaultDescription: ".tls in the current directory")
    var tlsDirectoryPath: String?
    @Option("--tls-cert", valueName: "PEM", help: """
        Serve https with this certificate chain and the key of --tls-key, instead of a local CA.
        """)
    var tlsCertificatePath: String?
    @Option("--tls-key", valueName: "PEM", help: "The private key of the --tls-cert chain.")
    var tlsKeyPath: String?
    @Flag("--print-manifest", help: """
        Print a manifest of DIR's audio and video files (sizes, SHA-256) and exit; save it as DIR/manifest.json \
        to serve them as sessions.
        """)
    var printManifest: Bool
    @Option("--print-game-version", valueName: "FILE", help: """
        Print the version file of a game-data archive you bring (size, SHA-256) and exit; save it as \
        version.json beside the archive, under DIR/game/.
        """)
    var printGameVersion: String?
    @Option(
        "--game-version", valueName: "N", help: "The version --print-game-version writes.",
        as: .number(in: 1...Int(Int32.max), expected: "a version from 1"))
    var gameVersion = 1

    mutating func validate() throws(UsageError) {
        if (tlsCertificatePath == nil) != (tlsKeyPath == nil) {
            throw UsageError("--tls-cert and --tls-key go together; pass both, or --tls alone for a local CA.")
        }
        if tlsCertificatePath != nil { tls = true }
    }
}
