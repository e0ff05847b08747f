/*
Abstract:
The ba-package executable: runs one packaging command and exits with its code.
*/

import AssetPackagingTool
import Foundation

@main
struct BAPackageCommand {
    static func main() {
        let outcome = AssetPackagingTool.run(
            arguments: Array(CommandLine.arguments.dropFirst()),
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        exit(outcome.rawValue)
    }
}
