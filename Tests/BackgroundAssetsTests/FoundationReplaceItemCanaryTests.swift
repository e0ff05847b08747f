/*
Abstract:
Foundation's own replaceItemAt on this toolchain: the reason FoundationFixes exists, and the signal to delete it.
*/

// swift-corelibs-foundation's replaceItem(at:withItemAt:backupItemName:options:), which Apple's SDK
// does not have, runs the same code as its replaceItemAt; the framework's fix does not shadow it, so
// it shows what the toolchain itself does (replaceItemAt here would reach the fix: a method needing
// no default argument wins, whichever files of the module import the frameworks).
import Foundation
import Testing
import TestSupport

@Suite("Foundation's own replaceItemAt")
struct FoundationReplaceItemCanaryTests {
    @Test("Foundation's own replaceItemAt still fails one of Apple's cases, so FoundationFixes is still needed")
    func toolchainStillNeedsTheFix() throws {
        let folder = try TemporaryDirectory(prefix: "replace-canary")
        let files = FileManager.default
        let destination = folder.appending("a")
        let staged = folder.appending("b")

        try Data("new".utf8).write(to: staged)
        let movesIntoEmptyPlace = (try? files.replaceItem(at: destination, withItemAt: staged, backupItemName: nil)) != nil
            && (try? Data(contentsOf: destination)) == Data("new".utf8)

        try? files.removeItem(at: destination)
        try Data("old".utf8).write(to: destination)
        try Data("newer".utf8).write(to: staged)
        let replacesExisting = (try? files.replaceItem(at: destination, withItemAt: staged, backupItemName: nil)) != nil
            && (try? Data(contentsOf: destination)) == Data("newer".utf8) && !files.fileExists(atPath: staged.path)

        #expect(
            !(movesIntoEmptyPlace && replacesExisting),
            """
            This toolchain's Foundation now replaces items as Apple's does. Delete \
            Shared/Frameworks/FoundationFixes/FileManager+ReplaceItem.swift and ItemReplacement.swift, \
            this test, and the rows about them in Docs/AppleAPIMapping.md.
            """)
    }
}
