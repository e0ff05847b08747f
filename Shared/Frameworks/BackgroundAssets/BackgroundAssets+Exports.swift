/*
Abstract:
What `import BackgroundAssets` brings in besides the framework's own types, as Apple's module does.
*/

// Apple's BackgroundAssets module re-exports Foundation, so an app file that imports only
// BackgroundAssets can use URL, URLRequest and the challenge types. On Linux those networking
// types live in FoundationNetworking, so it is re-exported too: Apple's files need no extra imports.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif

// BAError, BAErrorCode and BAAppExtensionInfo are defined in BackgroundAssetsIPC because the system
// service raises and reports them too, and the service must not link FoundationNetworking (and
// libcurl with it), which this module needs for authentication challenges. Apps and extensions
// import only BackgroundAssets, and see them here.
@_exported import class BackgroundAssetsIPC.BAAppExtensionInfo
@_exported import struct BackgroundAssetsIPC.BAError
@_exported import enum BackgroundAssetsIPC.BAErrorCode
@_exported import let BackgroundAssetsIPC.BAErrorDomain
