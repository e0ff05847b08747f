/*
Abstract:
The app's entry point: parses the command line and runs the app, or one of its commands.
*/

import BackgroundTasks
import Foundation

@main
struct WWDCSessionsApp {
    static func main() async {
        let options: AppOptions
        do {
            options = try AppOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            Terminal.write("\(error.localizedDescription)\n", to: STDERR_FILENO)
            exit(64)
        }

        switch options.command {
        case .help:
            Terminal.write(AppOptions.usage + "\n")
        case let .list(json):
            exit(ListCommand(json: json).run())
        case let .delete(sessionID):
            exit(DeleteCommand(sessionID: sessionID).run())
        case .run:
            // Every background task's handler is registered before the app finishes launching.
            BackgroundRefresh.register()
            if BGTaskScheduler.isBackgroundLaunch { await BackgroundRefresh.serveTasks() }
            exit(await RunCommand(options: options).run())
        }
    }
}
