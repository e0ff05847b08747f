/*
Abstract:
The asset-server command line, declared once for its parsing and its help, and parsed into one small struct.
*/

import ArgumentParsing
import AssetServer
import Foundation

/// The options of one `asset-server` run.
struct Options: ParsableArguments {
    var configuration = AssetServer.Configuration()
    var sessionCount: Int
    var sessionSize: Int64
    var tls = false
    var tlsDirectory = URL(fileURLWithPath: ".tls", isDirectory: true)
    var tlsCertificate: URL?
    var tlsKey: URL?
    var printManifest = false
    var gameArchive: URL?
    var gameVersion: Int

    /// Reads the options; `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``UsageError`` naming the flag and value at fault.
    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        configuration.port = SamplePort.fromAppInfoPlist(
            searchingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        configuration.host = try arguments.value(Self.host)
        configuration.port = try arguments.option(Self.port) ?? configuration.port
        if let folder = try arguments.option(Self.catalog) {
            configuration.catalogDirectory = URL(fileURLWithPath: folder, isDirectory: true)
        }
        sessionCount = try arguments.value(Self.sessions)
        sessionSize = try arguments.value(Self.sessionSize)
        configuration.limits.maximumUploadBytes = try arguments.value(Self.maxUploadBytes)
        if let file = try arguments.option(Self.accessLog) { configuration.accessLogURL = URL(fileURLWithPath: file) }
        tls = arguments.flag(Self.tls)
        if let folder = try arguments.option(Self.tlsDirectory) {
            tlsDirectory = URL(fileURLWithPath: folder, isDirectory: true)
        }
        tlsCertificate = try arguments.option(Self.tlsCertificate).map { URL(fileURLWithPath: $0) }
        tlsKey = try arguments.option(Self.tlsKey).map { URL(fileURLWithPath: $0) }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw UsageError("--tls-cert and --tls-key go together; pass both, or --tls alone for a local CA.")
        }
        if tlsCertificate != nil { tls = true }
        printManifest = arguments.flag(Self.printManifest)
        gameArchive = try arguments.option(Self.printGameVersion).map { URL(fileURLWithPath: $0) }
        gameVersion = try arguments.value(Self.gameVersion)
        try readFaults(arguments)
    }

    private mutating func readFaults(_ arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        var faults = configuration.faults
        faults.throttleBytesPerSecond = try arguments.option(Self.throttle) ?? faults.throttleBytesPerSecond
        faults.dropAfterBytes = try arguments.option(Self.dropAfter) ?? faults.dropAfterBytes
        faults.failures += try arguments.options(Self.fail)
        if let latency = try arguments.option(Self.latency) { faults.latency = .milliseconds(latency) }
        faults.corruptedPaths.formUnion(try arguments.options(Self.corrupt))
        faults.credentials = try arguments.option(Self.auth) ?? faults.credentials
        configuration.faults = faults
    }
}
