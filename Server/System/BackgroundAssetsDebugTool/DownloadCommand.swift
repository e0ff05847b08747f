/*
Abstract:
`download`: runs one download through the real service on the tool's behalf, like `bitsadmin /transfer`.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Downloads a URL to a file through `backgroundassetsd`, resuming the same download when re-run.
struct DownloadCommand: DebugSubcommand {
    static let url = Argument("URL", help: "What to download: an https URL, or http on this machine.")
    static let output = Option("--output", valueName: "PATH", help: "The file to write; replaced if it exists.").required()
    static let size = Option<Int>.number(
        "--size", valueName: "BYTES", in: 1...Int.max, expected: "a positive number of bytes",
        help: "The exact size; the download fails if the server's differs.")
    static let foreground = Flag("--foreground", help: """
        Run as a foreground download: not throttled, fails fast when offline. Promotes the download if an \
        earlier run left it in the background.
        """)
    static let credential = Option(
        "--credential", valueName: "USER:PASSWORD", help: """
            Answer an authentication challenge (HTTP 401) with this credential; without it the challenge gets \
            default handling and the download fails.
            """
    ) { text throws(UsageError) -> (user: String, password: String) in
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw UsageError("--credential must be USER:PASSWORD, with a non-empty user name.")
        }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    static let signature = CommandSignature(
        name: "download", abstract: "Download a URL to a file through the service, resuming when run again.",
        discussion: """
            The download belongs to the tool itself (\(ToolContext.bundleIdentifier)); its identifier comes
            from the URL and the output path, so running the same command after Ctrl-C or after the service
            was killed continues the download instead of starting over. Progress goes to standard error.
            """,
        arguments: [url, output, size, foreground, credential])

    var request: DownloadRequest

    init(parsing arguments: SubcommandArguments) throws(DebugToolError) {
        request = try DownloadRequest(parsing: arguments)
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let (signals, continuation) = AsyncStream<DownloadWatcher.Signal>.makeStream()
        let connection = context.connection { continuation.yield(.event($0)) }
        defer { connection.disconnect() }
        DebugTool.interruptionNote.withLock {
            $0 = "Interrupted: the download \(request.identifier) continues in the service. Run the same command "
                + "again to resume it, or `backgroundassets-debug cancel \(request.identifier)` to drop it."
        }
        // Ticks let the watcher notice a service that died (and start it again) even when no event comes.
        let ticker = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        var watcher = DownloadWatcher(request: request, connection: connection, paths: context.paths, console: context.console)
        if try watcher.placeKeptFile() { return .success }
        try await watcher.start()
        try await watcher.watch(signals)
        return .success
    }
}

extension DebugTool {
    /// What to print when Ctrl-C ends the tool; set by a subcommand whose work outlives it.
    public static let interruptionNote = Mutex<String?>(nil)
}
