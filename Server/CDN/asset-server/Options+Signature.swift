/*
Abstract:
What asset-server says about itself in its help, and the server configuration its options add up to.
*/

import ArgumentParsing
import AssetServer
import Foundation

extension Options {
    static let configuration = CommandConfiguration(
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
        usage: "[options]")
}

extension Options {
    /// The server the options describe; the port, when not given, is the one the sample app expects.
    var serverConfiguration: AssetServer.Configuration {
        var configuration = AssetServer.Configuration()
        configuration.host = host
        configuration.port = port ?? SamplePort.fromAppInfoPlist(
            searchingFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        if let catalog { configuration.catalogDirectory = URL(fileURLWithPath: catalog, isDirectory: true) }
        configuration.limits.maximumUploadBytes = maxUploadBytes
        if let accessLog { configuration.accessLogURL = URL(fileURLWithPath: accessLog) }
        var faults = configuration.faults
        faults.throttleBytesPerSecond = throttle ?? faults.throttleBytesPerSecond
        faults.dropAfterBytes = dropAfter ?? faults.dropAfterBytes
        faults.failures += fail
        if let latency { faults.latency = .milliseconds(latency) }
        faults.corruptedPaths.formUnion(corrupt)
        faults.credentials = auth ?? faults.credentials
        configuration.faults = faults
        return configuration
    }

    /// The TLS folder.
    var tlsDirectory: URL { URL(fileURLWithPath: tlsDirectoryPath ?? ".tls", isDirectory: true) }
    /// The certificate chain to serve instead of a local CA's.
    var tlsCertificate: URL? { tlsCertificatePath.map { URL(fileURLWithPath: $0) } }
    /// The key of ``tlsCertificate``.
    var tlsKey: URL? { tlsKeyPath.map { URL(fileURLWithPath: $0) } }
    /// The game-data archive whose version file to print.
    var gameArchive: URL? { printGameVersion.map { URL(fileURLWithPath: $0) } }
}
