/*
Abstract:
The asset-server command line, parsed into one small struct.
*/

import ArgumentParsing
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
          --print-game-version FILE   Print the version file of a game-data archive you bring (size, SHA-256)
                                      and exit; save it as version.json beside the archive, under DIR/game/.
          --game-version N            The version --print-game-version writes (default 1).
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
    var gameArchive: URL?
    var gameVersion = 1

    /// Parses `arguments` (without the program name); `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``UsageError`` naming the flag and value at fault.
    init(arguments: [String]) throws(UsageError) {
        configuration.port = SamplePort.fromAppInfoPlist(
            searchingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        var arguments = LegacyCommandLineArguments(arguments, command: "asset-server")
        showHelp = arguments.flag("--help", "-h")
        printManifest = arguments.flag("--print-manifest")
        tls = arguments.flag("--tls")
        do {
            try parseServing(&arguments)
            try parseFaults(&arguments)
        } catch let error as UsageError {
            throw error
        } catch {
            // The fault rules and the access log name their own flag and value.
            throw UsageError("\(error)")
        }
        try arguments.finish()
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw UsageError("--tls-cert and --tls-key go together; pass both, or --tls alone for a local CA.")
        }
        if tlsCertificate != nil { tls = true }
    }

    private mutating func parseServing(_ arguments: inout LegacyCommandLineArguments<UsageError>) throws {
        configuration.host = try arguments.option("--host") ?? configuration.host
        configuration.port = try arguments.number("--port", in: 0...65535, expected: "a port from 0 to 65535") ?? configuration.port
        if let folder = try arguments.option("--catalog") { configuration.catalogDirectory = URL(fileURLWithPath: folder, isDirectory: true) }
        sessionCount = try arguments.number("--sessions", in: 1...10_000, expected: "a session count from 1 to 10000") ?? sessionCount
        sessionSize = try arguments.number("--session-size", in: 0...(1 << 40), expected: "a size in bytes from 0 to 1 TiB") ?? sessionSize
        if let file = try arguments.option("--access-log") { configuration.accessLogURL = URL(fileURLWithPath: file) }
        if let folder = try arguments.option("--tls-dir") { tlsDirectory = URL(fileURLWithPath: folder, isDirectory: true) }
        tlsCertificate = try arguments.option("--tls-cert").map { URL(fileURLWithPath: $0) }
        tlsKey = try arguments.option("--tls-key").map { URL(fileURLWithPath: $0) }
        gameArchive = try arguments.option("--print-game-version").map { URL(fileURLWithPath: $0) }
        gameVersion = try arguments.number("--game-version", in: 1...Int(Int32.max), expected: "a version from 1") ?? gameVersion
    }

    private mutating func parseFaults(_ arguments: inout LegacyCommandLineArguments<UsageError>) throws {
        var faults = configuration.faults
        faults.throttleBytesPerSecond = try arguments.number("--throttle", in: 1...Int64.max, expected: "a positive byte rate")
            ?? faults.throttleBytesPerSecond
        faults.dropAfterBytes = try arguments.number("--drop-after", in: 0...Int64.max, expected: "a byte count of 0 or more")
            ?? faults.dropAfterBytes
        faults.failures += try arguments.options("--fail").map { try FailureRule(parsing: $0) }
        if let latency = try arguments.number("--latency", in: 0...600_000, expected: "milliseconds from 0 to 600000") {
            faults.latency = .milliseconds(latency)
        }
        for path in try arguments.options("--corrupt") {
            guard path.hasPrefix("/") else { throw UsageError("--corrupt takes a request path starting with /, not \(path.debugDescription).") }
            faults.corruptedPaths.insert(path)
        }
        if let credentials = try arguments.option("--auth") { faults.credentials = try BasicCredentials(parsing: credentials) }
        configuration.faults = faults
    }
}
