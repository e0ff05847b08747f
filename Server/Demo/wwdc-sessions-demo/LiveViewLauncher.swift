/*
Abstract:
Starts the live timeline of the demo's run, backgroundassets-debug trace --serve, and reads its address.
*/

import BackgroundAssetsIPC
import Foundation

/// The demo's live view: a page on 127.0.0.1 that draws the run's timeline while it happens.
enum LiveViewLauncher {
    /// The line `trace --serve` prints first, before the page's address.
    static let servingPrefix = "Serving the live timeline at "

    /// Starts `backgroundassets-debug trace --serve 0` for the trace from `since` on.
    /// - Returns: The process, to stop at the end, and the page's address.
    /// - Throws: ``DemoError`` when the tool cannot start or prints something else first.
    static func start(since: Date, processes: DemoProcesses) throws -> (process: Process, url: String) {
        let output = Pipe()
        let process = try processes.start(
            "backgroundassets-debug", ["trace", "--serve", "0", "--since", ISO8601Timestamp.string(for: since) + "Z"],
            output: output)
        let line = try AssetServerLauncher.readLine(output, of: "backgroundassets-debug trace --serve")
        guard line.hasPrefix(servingPrefix) else {
            processes.stop(process)
            throw DemoError(
                "backgroundassets-debug trace --serve printed \(line.debugDescription) instead of its address.")
        }
        return (process, String(line.dropFirst(servingPrefix.count)))
    }
}
