/*
Abstract:
What `import BackgroundURLSessions` brings: Foundation with its networking, as `import Foundation` does on Apple platforms.
*/

// On Apple platforms background sessions are part of Foundation. On Linux, swift-corelibs-foundation
// declares `URLSessionConfiguration.background(withIdentifier:)` unavailable and runs every task in
// the app's process, so this module supplies them, on the device's system service. An app file
// imports it instead of Foundation: it re-exports Foundation and FoundationNetworking (through
// FoundationFixes, as the other frameworks here do), and its declarations of Foundation's names
// (the delegate protocols, `earliestBeginDate`) shadow Foundation's for such a file, because Swift
// prefers the module that re-exports another over the module it re-exports.
@_exported import FoundationFixes
