/*
Abstract:
The list command: the sessions of the local manifest and whether each is on the device.
*/

import Foundation
import SessionKit

/// Prints the sessions the app group's manifest lists, as a table or as JSON.
///
/// It reads only the app group, never the network or the system service, so it answers at once
/// and does not count as a launch of the app.
struct ListCommand {
    /// One session as `list --json` prints it.
    struct Entry: Encodable {
        var id: String
        var title: String
        var fileSize: Int
        var essential: Bool
        var state: LocalSession.State
        var path: String
    }

    /// Whether to print JSON rather than a table.
    let json: Bool

    /// Prints the sessions.
    /// - Returns: The exit status: 0, or 1 when the local manifest can't be read.
    func run() -> Int32 {
        let settings = SharedSettings.shared
        let manifest: Manifest?
        do {
            manifest = try settings.loadLocalManifest()
        } catch {
            Terminal.write("\(error.localizedDescription)\n", to: STDERR_FILENO)
            return 1
        }
        let sessions = manifest?.localSessions(settings: settings) ?? []
        if manifest == nil {
            Terminal.write(
                "There is no manifest in \(settings.localManifestURL.path) yet. Install the app, or run "
                    + "\(AppOptions.command) once with the asset server running.\n", to: STDERR_FILENO)
        }
        json ? printJSON(sessions) : printTable(sessions)
        return 0
    }

    private func printJSON(_ sessions: [LocalSession]) {
        guard !sessions.isEmpty else { return Terminal.write("[]\n") }
        let entries = sessions.map { local in
            Entry(
                id: local.id, title: local.session.title, fileSize: local.session.fileSize,
                essential: local.session.essential, state: local.state, path: local.filePath)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        let data = (try? encoder.encode(entries)) ?? Data("[]".utf8)
        Terminal.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private func printTable(_ sessions: [LocalSession]) {
        guard !sessions.isEmpty else { return }
        let statuses = sessions.map { local in
            let isOnDisk = local.state == .downloaded
            return SessionStatus(
                session: local.session, phase: isOnDisk ? .downloaded : .remote,
                bytesWritten: isOnDisk ? Int64(local.session.fileSize) : 0, bytesPerSecond: nil)
        }
        let isTerminal = Terminal.isInteractive
        let table = SessionTable(
            width: isTerminal ? Terminal.columns : 120, usesColor: isTerminal, showsProgress: false)
        Terminal.write(table.lines(for: statuses).joined(separator: "\n") + "\n")
    }
}
