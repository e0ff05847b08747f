/*
Abstract:
`trust`: the CA certificates a device trusts for https, beyond the machine's own store.
*/

import BackgroundAssetsIPC
import Foundation
import TLS

/// Adds, lists and removes the CAs of the device, as installing a configuration profile with a
/// root certificate does on a device. The service, the app and the extension of this device
/// trust them; the machine's trust store is never touched.
struct TrustCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "trust", abstract: "Trust a CA certificate on this device for https, list the trusted ones, or remove one.",
        discussion: """
            Trusted CAs are kept in system/trust/ of the device root; downloads already running keep
            the trust they started with, the next ones use the new list.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    /// `trust add PEM`.
    struct Add: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "add", abstract: "Trust the CA certificate in the PEM file (asset-server --tls prints its path).")

        @Argument("PEM")
        var pem: String
    }

    /// `trust list [--json]`.
    struct List: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "list", abstract: "List the trusted CAs: SHA-256 fingerprint, subject, expiry.")

        @Flag("--json", help: "Print the list as a JSON array.")
        var json: Bool
    }

    /// `trust remove (PATH | SHA-256)`.
    struct Remove: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "remove", abstract: "Stop trusting a CA, named by the PEM file it was added from or its fingerprint.")

        @Argument("(PATH | SHA-256)")
        var fingerprintOrPath: String
    }

    enum Action: Sendable, Equatable {
        case add(String)
        case list(json: Bool)
        case remove(String)
    }

    var action = Action.list(json: false)

    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        if let add = try arguments.values(of: Add.self) {
            action = .add(add.pem)
        } else if let remove = try arguments.values(of: Remove.self) {
            action = .remove(remove.fingerprintOrPath)
        } else if let list = try arguments.values(of: List.self) {
            action = .list(json: list.json)
        }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let store = TrustStore(directory: context.paths.trustDirectory)
        if case .list = action {} else { try context.requireOwnDeviceRoot() }
        switch action {
        case let .add(path):
            let summary = try store.add(URL(fileURLWithPath: path))
            context.console.output("Trusted \(summary.subject) (SHA-256 \(summary.sha256)) on the device \(context.paths.root.path).")
        case let .list(json):
            let entries = try store.list()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                context.console.output(String(decoding: try encoder.encode(entries.map(\.summary)), as: UTF8.self))
            } else if entries.isEmpty {
                context.console.output("No CAs trusted on this device beyond the system's; add one with trust add PEM.")
            } else {
                for entry in entries {
                    context.console.output("\(entry.summary.sha256)  \(entry.summary.subject)  expires \(entry.summary.notAfter)")
                }
            }
        case let .remove(name):
            let removed = try store.remove(name)
            context.console.output("No longer trusted: \(removed.subject) (SHA-256 \(removed.sha256)).")
        }
        return .success
    }
}

/// The folder of trusted CA certificates: one PEM file each, named by its SHA-256 fingerprint.
struct TrustStore: Sendable {
    struct Entry: Sendable {
        var file: URL
        var summary: CertificateSummary
    }

    let directory: URL

    /// Copies a CA certificate in.
    /// - Throws: ``DebugToolError`` when the file is not a CA certificate.
    func add(_ file: URL) throws -> CertificateSummary {
        let text: String
        do { text = try String(contentsOf: file, encoding: .utf8) } catch {
            throw DebugToolError("Could not read \(file.path): \(DebugTool.clause(error)). Give the path of a PEM certificate, "
                + "such as the one asset-server --tls prints (.tls/ca.pem).")
        }
        let summary: CertificateSummary
        do { summary = try CertificateSummary(pem: text) } catch {
            throw DebugToolError("\(file.path) is not a PEM certificate (\(error.message)). asset-server --tls prints the path of its CA certificate.")
        }
        guard summary.isCA else {
            throw DebugToolError("\(file.path) is not a CA certificate (\(summary.subject)); trust the CA that issued it, not the server's own certificate.")
        }
        let destination = directory.appending(path: "\(summary.sha256).pem")
        if let reason = AtomicFileWriter.write(Data(text.utf8), to: destination, followingFolderLink: false) {
            throw DebugToolError(
                "Could not save the CA as \(destination.path): \(reason). Check that the device root is yours and writable.")
        }
        return summary
    }

    /// The trusted CAs, by fingerprint.
    func list() throws -> [Entry] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "pem" }.compactMap { file in
            guard let text = try? String(contentsOf: file, encoding: .utf8), let summary = try? CertificateSummary(pem: text) else {
                return nil
            }
            return Entry(file: file, summary: summary)
        }.sorted { $0.summary.sha256 < $1.summary.sha256 }
    }

    /// Removes the CA named by a PEM file's path or by its fingerprint (colons and case ignored).
    func remove(_ name: String) throws -> CertificateSummary {
        var fingerprint = name.lowercased().replacingOccurrences(of: ":", with: "")
        if FileManager.default.fileExists(atPath: name), let text = try? String(contentsOfFile: name, encoding: .utf8),
           let summary = try? CertificateSummary(pem: text) {
            fingerprint = summary.sha256
        }
        guard let entry = try list().first(where: { $0.summary.sha256 == fingerprint || (fingerprint.count >= 8 && $0.summary.sha256.hasPrefix(fingerprint)) }) else {
            throw DebugToolError("No trusted CA matches \(name.debugDescription); trust list shows the fingerprints.")
        }
        try FileManager.default.removeItem(at: entry.file)
        return entry.summary
    }
}
