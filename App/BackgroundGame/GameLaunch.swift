/*
Abstract:
What opening the game does: check the version file, start the background download of newer data, and tell the player they can leave.
*/

import Foundation

/// One launch of the game by the player.
struct GameLaunch {
    let options: GameOptions

    /// How often `--until-ready` looks at the installed data.
    static let readinessInterval = Duration.milliseconds(200)

    /// Runs the launch; with `--until-ready`, waits until the newest data is installed.
    /// - Returns: The exit status.
    func run() async -> Int32 {
        do {
            let newest = try await checkForNewData()
            guard options.untilReady, let newest else { return 0 }
            return await waitUntilInstalled(newest)
        } catch {
            print(error)
            return 1
        }
    }

    /// Compares the installed data with the version file and starts what is missing.
    /// - Returns: The newest version, or `nil` when it is installed already.
    private func checkForNewData() async throws -> GameVersion? {
        let data = try GameData.current
        guard let url = GameVersion.infoPlistURL else { throw GameError.notInstalled }
        let newest = try await GameVersion.fetch(from: url)
        if let installed = data.installedVersion, installed >= newest.version {
            print("Game data version \(installed) is installed and verified. Ready to play.")
            return nil
        }
        // Ask now, while the player is here: the notifications arrive when they are gone.
        await GameNotifications.requestAuthorization()
        if data.pendingUpdate?.version == newest.version, data.hasDownloadedArchive {
            print("Game data version \(newest.version) is downloaded; it is being verified and installed.")
            DataInstaller.schedule()
            return newest
        }
        try data.recordPendingUpdate(newest)
        let started = await GameDownloader.shared.download(newest)
        let size = String(format: "%.1f MiB", Double(newest.size) / 1_048_576)
        print(started
            ? "Downloading game data version \(newest.version) (\(size)) in the background."
            : "Game data version \(newest.version) (\(size)) is already downloading in the background.")
        print("You can leave the game: you will be notified when it is ready to play.")
        return newest
    }

    /// Waits until the newest version is installed, or the timeout passes.
    private func waitUntilInstalled(_ newest: GameVersion) async -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: options.timeout)
        while ContinuousClock.now < deadline {
            // Ready once the install has finished too: it deletes the pending update last, after the old data.
            let data = try? GameData.current
            if let installed = data?.installedVersion, installed >= newest.version, data?.pendingUpdate == nil {
                print("Game data version \(installed) is installed and verified. Ready to play.")
                return 0
            }
            // The player is here: install what arrived now rather than when the game has left.
            if data?.pendingUpdate?.version == newest.version, data?.hasDownloadedArchive == true,
                !DataInstaller.installWhileOpen()
            {
                return 1
            }
            try? await Task.sleep(for: Self.readinessInterval)
        }
        print("Game data version \(newest.version) was not installed after \(options.timeout.components.seconds) seconds. "
            + "Pass a longer --timeout, or see why with swift run backgroundassets-debug status and trace.")
        return 1
    }
}
