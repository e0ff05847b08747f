/*
Abstract:
The one-command demo: runs the asset server, the install, and the app, and stops them on Ctrl-C.
*/

import ArgumentParsing
import BackgroundAssetsIPC
import Foundation
import HTTPCore
import Synchronization

@main
struct DemoCommand {
    static func main() {
        let stopSignals = StopSignals.blockInEveryThread()
        let options: DemoOptions
        do {
            options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            CommandLineExit.usageError(error.message, command: "wwdc-sessions-demo", usage: DemoOptions.usage)
        }
        if options.showHelp { CommandLineExit.help(DemoOptions.usage) }
        let paths = DevicePaths.current()
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var environment = ProcessInfo.processInfo.environment
        environment["BA_DEVICE_ROOT"] = paths.root.path
        let processes = DemoProcesses(folder: products, environment: environment)
        let narrator = Narrator(explains: options.step, isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
        say("\(SampleAppInfo(repository: options.repository).displayName) demo, device root \(paths.root.path)")
        let stopping = Atomic<Int32>(0)
        Task.detached {
            var status: Int32 = 0
            do {
                try await DemoScript(options: options, processes: processes, narrator: narrator, paths: paths).run()
                say("\nDone: every session is on the device and verified.")
            } catch {
                // Ctrl-C reaches the demo's children too, and one may fail of it first: that is the
                // person stopping the demo, not the demo failing, so it exits as interrupted.
                let signal = stopSignals.pending() ?? stopping.load(ordering: .acquiring)
                if signal != 0 {
                    processes.stopAll()
                    exit(signal == SIGINT ? 130 : 143)
                }
                FileHandle.standardError.write(Data("wwdc-sessions-demo: \(error)\n".utf8))
                status = 1
            }
            processes.stopAll()
            exit(status)
        }
        // Ctrl-C or SIGTERM: stop everything the demo started.
        let signal = stopSignals.wait()
        stopping.store(signal, ordering: .releasing)
        processes.stopAll()
        exit(signal == SIGINT ? 130 : 143)
    }
}
