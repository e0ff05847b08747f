/*
Abstract:
The backgroundassets-debug executable: runs one subcommand of the debug tool and exits with its code.
*/

import BackgroundAssetsDebugTool
import Foundation
import ServerRuntime

@main
struct BackgroundAssetsDebugCommand {
    static func main() {
        // Blocked before any thread starts, so only the wait below receives Ctrl-C and SIGTERM
        // and the tool can say what happens to a download it leaves behind.
        let stopSignals = StopSignals.blockInEveryThread()
        signal(SIGPIPE, SIG_IGN)

        let arguments = Array(CommandLine.arguments.dropFirst())
        // Detached: main() runs on the main actor, whose thread stays parked in sigwait below.
        Task.detached {
            let code = await DebugTool.run(arguments: arguments, context: .ofThisProcess())
            exit(code.rawValue)
        }
        stopSignals.wait()
        if let note = DebugTool.interruptionNote.withLock({ $0 }) {
            FileHandle.standardError.write(Data("\n\(note)\n".utf8))
        }
        exit(DebugExitCode.interrupted.rawValue)
    }
}
