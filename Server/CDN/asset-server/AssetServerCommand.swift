/*
Abstract:
The asset-server executable: parses options, prepares the catalog, serves until SIGINT or SIGTERM.
*/

import ArgumentParsing
import AssetServer
import Foundation
import ServerRuntime
import TLS

@main
struct AssetServerCommand {
    static func main() {
        let stopSignals = StopSignals.blockInEveryThread()
        let options = Options.parseOrExit()
        var configuration = options.serverConfiguration
        var caCertificate: URL?
        if options.tls {
            if let certificate = options.tlsCertificate, let key = options.tlsKey {
                configuration.tls = .init(certificateChain: certificate, privateKey: key)
            } else {
                do {
                    let authority = try LocalCertificateAuthority(directory: options.tlsDirectory)
                    configuration.tls = .init(certificateChain: authority.serverCertificate, privateKey: authority.serverKey)
                    caCertificate = authority.caCertificate
                } catch {
                    fail("asset-server: the local CA in \(options.tlsDirectory.path) cannot be used: \(error.message)", code: 1)
                }
            }
        }
        if let archive = options.gameArchive {
            do {
                FileHandle.standardOutput.write(try Catalog.gameVersionFile(describing: archive, version: options.gameVersion))
                exit(0)
            } catch {
                fail("asset-server: \(error)", code: 1)
            }
        }
        if options.printManifest {
            do {
                let manifest = try Catalog.manifestDescribingMedia(in: configuration.catalogDirectory)
                FileHandle.standardOutput.write(try manifest.encoded())
                FileHandle.standardOutput.write(Data("\n".utf8))
                exit(0)
            } catch {
                fail("asset-server: \(error)", code: 1)
            }
        }
        let server = AssetServer(configuration: configuration, clock: SystemDeadlineClock())
        do {
            let catalog = try Catalog.prepare(at: configuration.catalogDirectory, sessionCount: options.sessionCount,
                                              sessionSize: options.sessionSize)
            FileHandle.standardError.write(Data(Self.describe(catalog).utf8))
            let port = try server.start()
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            // Written straight to the descriptor, unbuffered: launchers wait for this exact line.
            let scheme = configuration.tls == nil ? "http" : "https"
            FileHandle.standardOutput.write(Data("asset-server listening on \(scheme)://\(host):\(port)\n".utf8))
            if let caCertificate {
                FileHandle.standardOutput.write(Data("asset-server CA certificate: \(caCertificate.standardizedFileURL.path)\n".utf8))
            }
        } catch {
            fail("asset-server: \(error)", code: 1)
        }
        // Waiting on the main thread keeps shutdown ordinary code: it may lock and wait, unlike a signal handler.
        stopSignals.wait()
        server.shutdown()
        exit(0)
    }

    /// The line about the catalog on standard error, saying what was done with the folder.
    static func describe(_ catalog: Catalog) -> String {
        let path = catalog.directory.path
        return switch catalog.origin {
        case .existingManifest, .generated:
            "asset-server: catalog \(path) (\(catalog.manifest.sessions.count) sessions)\n"
        case let .assetPacks(count):
            "asset-server: serving the asset packs of \(path) (\(count) in its manifest.json, a download manifest)\n"
        case .servedAsIs:
            "asset-server: serving \(path) as it is: it has no manifest.json, and nothing is written into it. "
                + "To serve its media as sessions: asset-server --catalog \(path) --print-manifest > \(path)/manifest.json\n"
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(code)
    }
}
