/*
Abstract:
The delete command: removes a session's video from the device, so the next launch downloads it again.
*/

import Foundation
import SessionKit

/// Removes one session's video from the app group.
struct DeleteCommand {
    /// The session to delete.
    let sessionID: String

    /// Deletes the video.
    /// - Returns: The exit status: 0 when the video is gone (or was never there), 1 otherwise.
    func run() -> Int32 {
        let settings = SharedSettings.shared
        do {
            guard let manifest = try settings.loadLocalManifest(),
                  let session = manifest.session(withID: sessionID)
            else { throw AppError.unknownSession(sessionID) }
            let local = LocalSession(session: session, settings: settings)
            guard FileManager.default.fileExists(atPath: local.filePath) else {
                Terminal.write("Session \(sessionID) is not on the device; there is nothing to delete.\n")
                return 0
            }
            try FileManager.default.removeItem(at: local.fileURL)
            Terminal.write("Deleted session \(sessionID). The next launch of the app downloads it again.\n")
            return 0
        } catch {
            Terminal.write("\(error.localizedDescription)\n", to: STDERR_FILENO)
            return 1
        }
    }
}
