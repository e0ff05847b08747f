/*
Abstract:
The one-command demo: runs the asset server, the install, and the app, and stops them on Ctrl-C.
*/

import BackgroundAssetsIPC
import Foundation
import ServerRuntime
import Synchronization

@main
struct DemoCommand {
    static func main() {
        let stopSignals = StopSignals.blockInEveryThread()
        let options = DemoOptions.parseOrExit()
        let paths = DevicePaths.current()
        do {
            try DemoLock.acquire(in: paths)
        } catch {
            FileHandle.standardError.write(Data("wwdc-sessions-demo: \(error)\n".utf8))
            exit(1)
        }
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
                // person stopping the demo, not the demo failing, so it exits as interrupted. A child
                // can end of it before the demo's own signal arrives, so that wait is given a second.
                var signal = stopSignals.pending() ?? stopping.load(ordering: .acquiring)
                if signal == 0, (error as? DemoError)?.isInterruption == true {
                    let deadline = Date.now.addingTimeInterval(1)
                    while signal == 0, Date.now < deadline {
                        try? await Task.sleep(for: .milliseconds(10))
                        signal = stopSignals.pending() ?? stopping.load(ordering: .acquiring)
                    }
                }
                if signal != 0 {
                    reportInterruption(stopped: processes.stopAll(), processes: processes, options: options)
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
        reportInterruption(stopped: processes.stopAll(), processes: processes, options: options)
        exit(signal == SIGINT ? 130 : 143)
    }

    /// Whether the note on the interruption was written; held while it is written.
    private static let interruptionReported = Mutex(false)

    /// Says what stopping the demo left behind. The tool it ran may have said the install goes on
    /// in the service, which is true, but the asset server it downloads from is one the demo started.
    private static func reportInterruption(stopped: [String], processes: DemoProcesses, options: DemoOptions) {
        // Both of the demo's threads may get here, the one that waited for the signal and the one
        // whose child ended of it; one note is enough. The note is written under the lock, so the
        // thread that finds it taken exits only once the other has written it.
        interruptionReported.withLock { reported in
            guard !reported else { return }
            reported = true
            var note = "wwdc-sessions-demo: interrupted"
            // The live view and a step's tool are both backgroundassets-debug; the note names it once.
            var named = Set<String>()
            let names = stopped.filter { named.insert($0).inserted }
            if !names.isEmpty { note += "; stopped \(names.joined(separator: ", "))" }
            note += "."
            if stopped.contains("asset-server") {
                let server = options.assetServerCommand(port: processes.assetServerPort.load(ordering: .acquiring))
                note += " The app stays installed and the service keeps its unfinished downloads, which wait for the "
                    + "asset server: start it again with `swift run \(server)` to let them finish, or run the demo "
                    + "again to start over from a fresh install."
            }
            FileHandle.standardError.write(Data((note + "\n").utf8))
        }
    }
}
