/*
Abstract:
`reset`: stops the service and empties its queue, after asking (or with --yes).
*/

import BackgroundAssetsIPC
import Foundation

/// Stops `backgroundassetsd` and deletes its queue and partial downloads.
struct ResetCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "reset", abstract: "Stop the service and delete its queue and partial downloads.",
        discussion: """
            Sends SIGTERM to the service, waits for it to exit, then deletes system/queue.sqlite*,
            staging/* and system/crash-history (ending a pause after repeated crashes). Files already
            handed over to app group containers are kept.
            """)

    @Flag("--yes", help: "Do not ask for confirmation (required when standard input is not a terminal).")
    var assumeYes: Bool

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let paths = context.paths
        try context.requireOwnDeviceRoot()
        if !assumeYes {
            guard context.console.inputIsTerminal else {
                throw DebugToolError.usage(
                    "reset deletes every download of \(paths.root.path) and standard input is not a terminal "
                        + "to confirm it; pass --yes.")
            }
            guard context.console.confirm("Stop backgroundassetsd and delete every download of \(paths.root.path)?")
            else {
                context.console.error("Nothing was changed.")
                return .failure
            }
        }
        let stopper = ServiceStopper(paths: paths)
        // Holding the service's own lock while deleting means no service can start on a half-deleted queue.
        let lock = try await stopper.stopAndLock(timeout: .seconds(15))
        defer { lock.release() }
        let removed = try clearQueue(paths)
        context.console.output("Reset \(paths.root.path): the service is stopped and \(removed) file(s) were deleted.")
        return .success
    }

    /// Deletes the store (with its WAL and shared-memory files), every staging file and the record
    /// of the service's crashes.
    private func clearQueue(_ paths: DevicePaths) throws -> Int {
        let fileManager = FileManager.default
        var victims: [URL] = ["", "-wal", "-shm", "-journal"].map { suffix in
            URL(fileURLWithPath: paths.queueDatabase.path + suffix)
        }
        let staged = (try? fileManager.contentsOfDirectory(
            at: paths.stagingDirectory, includingPropertiesForKeys: nil)) ?? []
        victims += staged
        // The crashes the service remembers go with the queue they crashed on: a reset ends their pause.
        victims.append(paths.crashHistoryFile)
        var removed = 0
        for victim in victims where fileManager.fileExists(atPath: victim.path) {
            do {
                try fileManager.removeItem(at: victim)
                removed += 1
            } catch {
                throw DebugToolError("Could not delete \(victim.path) (\(error.localizedDescription)); "
                    + "check its permissions and run reset again.")
            }
        }
        return removed
    }
}
