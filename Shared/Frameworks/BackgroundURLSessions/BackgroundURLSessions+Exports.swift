/*
Abstract:
What `import BackgroundURLSessions` brings: Foundation with its networking, as `import Foundation` does on Apple platforms.
*/

// On Apple platforms background sessions are part of Foundation. On Linux, swift-corelibs-foundation
// declares `URLSessionConfiguration.background(withIdentifier:)` unavailable and runs every task in
// the app's process, so this module supplies them, on the device's system service. An app file
// imports it instead of Foundation: it re-exports Foundation and FoundationNetworking (through
// FoundationFixes, as the other frameworks here do).
@_exported import FoundationFixes

// The delegate protocols with urlSessionDidFinishEvents(forBackgroundURLSession:), imported by name:
// a declaration imported by name shadows Foundation's of the same name in every file that imports
// this module, whichever other modules (BackgroundTasks, FoundationNetworking) the file imports too.
// See BackgroundURLSessionDelegates for why a whole-module import would not.
@_exported import protocol BackgroundURLSessionDelegates.URLSessionDataDelegate
@_exported import protocol BackgroundURLSessionDelegates.URLSessionDelegate
@_exported import protocol BackgroundURLSessionDelegates.URLSessionDownloadDelegate
@_exported import protocol BackgroundURLSessionDelegates.URLSessionTaskDelegate
