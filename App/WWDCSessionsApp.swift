/*
Abstract:
The app's entry point: parses the command line and runs the app, or one of its commands.
*/

import BackgroundTasks
import Foundation

@main
struct WWDCSessionsApp {
    static func main() async {
        let options = AppOptions.parseOrExit()
        switch options.command {
        case let .list(json):
            exit(ListCommand(json: json).run())
        case let .delete(sessionID):
            exit(DeleteCommand(sessionID: sessionID).run())
        case let .holdControl(duration):
            exit(await HoldControlCommand(duration: duration).run())
        case .run:
            // Every background task's handler is registered before the app finishes launching.
            BackgroundRefresh.register()
            if BGTaskScheduler.isBackgroundLaunch { await BackgroundRefresh.serveTasks() }
            exit(await RunCommand(options: options).run())
        }
    }
}
