/*
Abstract:
Runs the Apple-style SessionManager until every session of the manifest is on the device.
*/

// Not Apple's code: on Apple platforms SwiftUI's App would create the SessionManager and show its
// sessions. This entry point refreshes the manifest and downloads what is missing, as the sample's
// content view does when it appears, and exits once every session's file is in place (status 0) or
// after `--timeout SECONDS` (status 1). Like Apple's, it calls nothing to say it launched: starting
// the installed app is its launch.
import BackgroundAssets
import Foundation

@main
enum AppleStyleApp {
    static func main() async {
        let arguments = CommandLine.arguments
        let timeout = arguments.firstIndex(of: "--timeout").flatMap { Double(arguments[safe: $0 + 1] ?? "") } ?? 60
        do {
            let manager = SessionManager.shared
            let done = AsyncStream<Void> { continuation in
                manager.observeChanges {
                    if !manager.sessions.isEmpty, manager.sessions.allSatisfy(SharedSettings.isDownloaded) {
                        continuation.finish()
                    }
                }
            }
            try await manager.refreshManifest()
            manager.downloadMissingSessions()
            let finished = await withTaskGroup(of: Bool.self) { group in
                group.addTask { for await _ in done {}; return true }
                group.addTask { try? await Task.sleep(for: .seconds(timeout)); return false }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            print(finished ? "All \(manager.sessions.count) sessions are on the device." : "Timed out after \(timeout) s.")
            exit(finished ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("apple-style-app: \(error)\n".utf8))
            exit(1)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
