/*
Abstract:
Opens a session: makes sure its slides pack is on the device, showing the download's progress, then reads its files.
*/

import BackgroundAssets
import Foundation

/// What opening a session does, as the app's session view would on Apple platforms.
struct SlidesViewer {
    let library = SessionLibrary()
    let manager = AssetPackManager.shared

    /// Opens a session: its slides come from the on-demand pack of its year.
    func open(sessionID: String) async throws {
        let session = try library.session(withID: sessionID)
        try await ensureSlides(inPackWithID: session.slidesPackID)

        print("\(session.id)  \(session.title)")
        // `url(for:)` resolves the path in every downloaded pack, through the version that is
        // current now; a file already open stays readable when the system installs a new version.
        let slides = try manager.url(for: session.slidesPath)
        let size = try slides.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        print("Slides: \(slides.path) (\(Self.kibibytes(size)))")
        print("Transcript: \(library.transcriptTitle(of: session) ?? "not on this device yet")")
    }

    /// Makes sure the pack is on the device, downloading it when it isn't, and shows its status
    /// updates meanwhile.
    private func ensureSlides(inPackWithID packID: String) async throws {
        // A pack already on the device makes ensureLocalAvailability(of:) return at once, without
        // a status update; there is nothing to watch.
        if manager.assetPackIsAvailableLocally(withID: packID) {
            print("\(packID) is on this device.")
            return
        }
        let assetPack = try await manager.assetPack(withID: packID)
        // Watch before asking, so the first update isn't missed. The pack's sequence ends after
        // the finished or failed update, which comes before ensureLocalAvailability(of:) returns.
        let updates = manager.statusUpdates(forAssetPackWithID: packID)
        let watcher = Task {
            var shownPercent = -1
            for await update in updates {
                switch update {
                case let .began(pack):
                    print("Downloading \(pack.id) version \(pack.version), \(Self.kibibytes(pack.downloadSize)).")
                case let .downloading(pack, progress):
                    // A line each quarter is enough for a log; a view would bind the progress instead.
                    let percent = Int(progress.fractionCompleted * 4) * 25
                    if percent > shownPercent {
                        shownPercent = percent
                        print("\(pack.id): \(percent)%")
                    }
                case let .paused(pack):
                    print("\(pack.id): paused; the system resumes it when it can.")
                case let .finished(pack):
                    print("\(pack.id) version \(pack.version) is on this device.")
                case let .failed(pack, error):
                    print("\(pack.id) failed: \(error.localizedDescription)")
                @unknown default:
                    break
                }
            }
        }
        do {
            // However many callers ask at the same time, the system downloads the pack once.
            try await manager.ensureLocalAvailability(of: assetPack)
        } catch {
            watcher.cancel()
            throw error
        }
        await watcher.value
    }

    static func kibibytes(_ bytes: Int) -> String {
        String(format: "%.1f KiB", Double(bytes) / 1024)
    }
}
