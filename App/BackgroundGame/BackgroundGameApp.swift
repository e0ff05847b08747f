/*
Abstract:
The game's entry point: registers its background work, then checks for new game data.
*/

import BackgroundTasks
import BackgroundURLSessions

@main
struct BackgroundGameApp {
    static func main() async {
        let options = GameOptions.parseOrExit()

        // Every background task's handler is registered before the app finishes launching.
        DataInstaller.register()

        // The one line Linux needs: no UIApplicationMain finds the app delegate to tell it about
        // the events of its background session when the system launches the game for them.
        BackgroundURLSessionEvents.applicationDelegate = AppDelegate.shared

        // Launched by the system, for the session's events or the processing task: no player is
        // there, so the game shows nothing and waits until the system ends it.
        if BGTaskScheduler.isBackgroundLaunch { await AppDelegate.serveBackgroundLaunch() }

        exit(await GameLaunch(options: options).run())
    }
}
