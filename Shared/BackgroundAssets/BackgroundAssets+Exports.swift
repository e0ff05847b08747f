/*
Abstract:
The framework's types that live beside the wire protocol, re-exported so apps find them here.
*/

// BAError and BAAppExtensionInfo are defined in BackgroundAssetsIPC because the system service
// raises and reports them too, and the service must not link FoundationNetworking (and libcurl
// with it), which this module needs for authentication challenges. Apps and extensions import
// only BackgroundAssets, and see them here.
@_exported import class BackgroundAssetsIPC.BAAppExtensionInfo
@_exported import struct BackgroundAssetsIPC.BAError
@_exported import let BackgroundAssetsIPC.BAErrorDomain
