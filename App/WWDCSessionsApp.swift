/*
Abstract:
The app's entry point: parses the command line and runs the app, or one of its commands.
*/

import ArgumentParsing
import BackgroundTasks
import Foundation

@main
struct WWDCSessionsApp {
    static func main() async {
        let options: AppOptions
        do {
            options = try AppOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            CommandLineExit.usageError(error.message, command: AppOptions.command, usage: AppOptions.usage)
        }

        switch options.command {
        case .help:
            CommandLineExit.help(AppOptions.usage)
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
