/*
Abstract:
Runs ba-package in-process for the tests of its commands.
*/

import AssetPackagingTool
import Foundation

/// Runs `ba-package ARGUMENTS` in-process in `folder`, returning its outcome and what it printed.
func baPackage(
    _ arguments: [String], in folder: URL
) -> (AssetPackagingTool.Outcome, output: String, error: String) {
    var output: [String] = []
    var error: [String] = []
    let outcome = AssetPackagingTool.run(arguments: arguments, currentDirectory: folder,
                                         output: { output.append($0) }, error: { error.append($0) })
    return (outcome, output.joined(separator: "\n"), error.joined(separator: "\n"))
}
