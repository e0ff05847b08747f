/*
Abstract:
A tool context for commands run inside the test process: what they print is kept, not written among the results.
*/

import BackgroundAssetsIPC

@testable import BackgroundAssetsDebugTool

extension ToolContext {
    /// A context for a device root whose console keeps what the command prints in `transcript`.
    static func recording(_ paths: DevicePaths, into transcript: ConsoleTranscript = ConsoleTranscript()) -> ToolContext {
        ToolContext(paths: paths, console: .recording(into: transcript))
    }
}
