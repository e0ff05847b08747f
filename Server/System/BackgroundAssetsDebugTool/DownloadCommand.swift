/*
Abstract:
`download`: runs one download through the real service on the tool's behalf, like `bitsadmin /transfer`.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Downloads a URL to a file through `backgroundassetsd`, resuming the same download when re-run.
struct DownloadCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "download", abstract: "Download a URL to a file through the service, resuming when run again.",
        discussion: """
            The download belongs to the tool itself (\(ToolContext.bundleIdentifier)); its identifier comes
            from the URL and the output path, so running the same command after Ctrl-C or after the service
            was killed continues the download instead of starting over. Progress goes to standard error.
            """)

    @Argument("URL", help: "What to download: an https URL, or http on this machine.")
    var url: String
    @Option("--output", valueName: "PATH", help: "The file to write; replaced if it exists.")
    var output: String
    @Option(
        "--size", valueName: "BYTES", help: "The exact size; the download fails if the server's differs.",
        as: .number(in: 1...Int.max, expected: "a positive number of bytes"))
    var size: Int?
    @Flag("--foreground", help: """
        Run as a foreground download: not throttled, fails fast when offline. Promotes the download if an \
        earlier run left it in the background.
        """)
    var foreground: Bool
    @Option(
        "--credential", valueName: "USER:PASSWORD", help: """
            Answer an authentication challenge (HTTP 401) with this credential; without it the challenge gets \
            default handling and the download fails.
            """,
        as: ArgumentConversion { text throws(UsageError) -> DownloadRequest.Credential in
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw UsageError("--credential must be USER:PASSWORD, with a non-empty user name.")
            }
            return DownloadRequest.Credential(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        })
    var credential: DownloadRequest.Credential?

    /// The download asked for, checked: a usable URL, and a file path in a folder that exists.
    var request: DownloadRequest {
        get throws(DebugToolError) {
            try DownloadRequest(url: url, outputPath: output, size: size, foreground: foreground, credential: credential)
        }
    }

    func prepare() throws(DebugToolError) {
        _ = try request
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let request = try request
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
