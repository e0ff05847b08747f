/*
Abstract:
What `import BackgroundAssets` brings in besides the framework's own types, as Apple's module does.
*/

// Apple's BackgroundAssets module re-exports Foundation, so an app file that imports only
// BackgroundAssets can use URL, URLRequest and the challenge types. FoundationFixes re-exports
// Foundation and, on Linux, FoundationNetworking, with the fixes Apple code needs
// (FileManager.replaceItemAt): re-exporting Foundation here as well would undo them.
@_exported import FoundationFixes

// BAError, BAErrorCode and BAAppExtensionInfo are defined in BackgroundAssetsIPC because the system
// service raises and reports them too, and the service must not link FoundationNetworking (and
// libcurl with it), which this module needs for authentication challenges. Apps and extensions
// import only BackgroundAssets, and see them here.
@_exported import class BackgroundAssetsIPC.BAAppExtensionInfo
@_exported import struct BackgroundAssetsIPC.BAError
@_exported import enum BackgroundAssetsIPC.BAErrorCode
@_exported import let BackgroundAssetsIPC.BAErrorDomain

// Apple's asset-pack API takes and returns the System module's FilePath and FileDescriptor, and an
// app that passes a literal never imports System itself; re-exporting it keeps that code compiling.
@_exported import System
