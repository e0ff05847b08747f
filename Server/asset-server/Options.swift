/*
Abstract:
The asset-server command line, parsed into one small struct.
*/

import AssetServer
import Foundation

/// The options of one `asset-server` run.
struct Options {
    static let usage = """
        Usage: asset-server [options]

        Serves a catalog over HTTP/1.1: a folder with a manifest.json and the files it lists. A missing or
        empty folder gets a synthetic catalog of WWDC session videos; a folder that already holds files is
        served as it is, and nothing is ever written into it (any path under it can be requested).

        Options:
          --host HOST                 Address to listen on (default 127.0.0.1).
          --port PORT                 TCP port; 0 picks a free one (default: the port of BAManifestURL in
                                      the package's App/Info.plist, else 8080).
          --catalog DIR               Catalog folder (default .catalog in the current directory).
          --sessions N                Sessions to generate when DIR has no manifest (default 12).
          --session-size BYTES        Nominal size of each generated session (default 8388608).
          --throttle BYTES_PER_SEC    Cap each response body to this rate.
          --drop-after BYTES          Close the connection after this many body bytes of a response.
          --fail PATH=STATUS[xCOUNT]  Answer STATUS for PATH, COUNT times or always (repeatable).
          --latency MS                Delay every response by MS milliseconds.
          --corrupt PATH              Serve PATH with some bytes flipped, same length and validators (repeatable).
          --auth USER:PASSWORD        Require Basic authentication for paths under /protected/.
          --access-log FILE           Append one JSON line per response to FILE.
          --tls                       Serve https. Alone, it creates once (and then reuses) a local CA and a
                                      certificate for localhost, 127.0.0.1 and ::1 in the TLS folder.
          --tls-dir DIR               The TLS folder (default .tls in the current directory).
          --tls-cert PEM --tls-key PEM  Serve https with this certificate chain and key instead.
          --print-manifest            Print a manifest of DIR's audio and video files (sizes, SHA-256) and
                                      exit; save it as DIR/manifest.json to serve them as sessions.
          --help                      Show this help.

        The first line on standard output is "asset-server listening on http://HOST:PORT" (https with --tls);
        with a local CA, a later line is "asset-server CA certificate: PATH", the file a device trusts
        with backgroundassets-debug trust add PATH.
        Exit codes: 0 after SIGINT or SIGTERM, 1 when the catalog or address cannot be used, 64 for bad options.
        """

    var configuration = AssetServer.Configuration()
    var sessionCount = Catalog.defaultSessionCount
    var sessionSize = Catalog.defaultSessionSize
    var showHelp = false
    var tls = false
    var tlsDirectory = URL(fileURLWithPath: ".tls", isDirectory: true)
    var tlsCertificate: URL?
    var tlsKey: URL?
    var printManifest = false

    /// Parses `arguments` (without the program name); `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``AssetServerError`` naming the flag and value at fault.
    init(arguments: [String]) throws {
        configuration.port = SamplePort.fromAppInfoPlist(
            searchingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                showHelp = true
                continue
            }
            if argument == "--print-manifest" {
                printManifest = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let flag = parts[0]
            func value() throws -> String {
                if parts.count == 2 { return parts[1] }
                guard let next = remaining.popFirst() else { throw AssetServerError.missingValue(flag: flag) }
                return next
            }
            func number(_ range: ClosedRange<Int64>, _ expected: String) throws -> Int64 {
                let text = try value()
                guard let number = Int64(text), range.contains(number) else {
                    throw AssetServerError.invalidOption(flag: flag, value: text, expected: expected)
                }
                return number
            }
            var faults = configuration.faults
            switch flag {
            case "--host": configuration.host = try value()
            case "--port": configuration.port = Int(try number(0...65535, "a port from 0 to 65535"))
            case "--catalog": configuration.catalogDirectory = URL(fileURLWithPath: try value(), isDirectory: true)
            case "--sessions": sessionCount = Int(try number(1...10_000, "a session count from 1 to 10000"))
            case "--session-size": sessionSize = try number(0...(1 << 40), "a size in bytes from 0 to 1 TiB")
            case "--throttle": faults.throttleBytesPerSecond = try number(1...Int64.max, "a positive byte rate")
            case "--drop-after": faults.dropAfterBytes = try number(0...Int64.max, "a byte count of 0 or more")
            case "--fail": faults.failures.append(try FailureRule(parsing: value()))
            case "--latency": faults.latency = .milliseconds(try number(0...600_000, "milliseconds from 0 to 600000"))
            case "--corrupt":
                let path = try value()
                guard path.hasPrefix("/") else {
                    throw AssetServerError.invalidOption(flag: flag, value: path, expected: "a request path starting with /")
                }
                faults.corruptedPaths.insert(path)
            case "--auth": faults.credentials = try BasicCredentials(parsing: value())
            case "--access-log": configuration.accessLogURL = URL(fileURLWithPath: try value())
            case "--tls": tls = true
            case "--tls-dir": tlsDirectory = URL(fileURLWithPath: try value(), isDirectory: true)
            case "--tls-cert": tlsCertificate = URL(fileURLWithPath: try value())
            case "--tls-key": tlsKey = URL(fileURLWithPath: try value())
            default: throw AssetServerError.unknownOption(argument)
            }
            configuration.faults = faults
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw AssetServerError.invalidOption(flag: tlsCertificate == nil ? "--tls-key" : "--tls-cert",
                                                 value: (tlsCertificate ?? tlsKey)!.path, expected: "--tls-cert and --tls-key together")
        }
        if tlsCertificate != nil { tls = true }
    }
}
