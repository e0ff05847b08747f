/*
Abstract:
Apple's AppExtensionConfiguration: what connects an app extension to its host.
*/

/// An interface you use to configure the connection between an app extension and its host, as
/// ExtensionFoundation's `AppExtensionConfiguration` on Apple platforms.
///
/// Background Assets supplies the configuration of a downloader extension
/// (`BADownloaderExtensionConfiguration`); an extension rarely names it.
/// - Note: Apple's requirement `accept(connection:)` takes an `NSXPCConnection`, which Linux does
///   not have: here the extension reaches its host over the system service's socket, so the
///   protocol has no requirements.
@MainActor @preconcurrency
public protocol AppExtensionConfiguration: Sendable {}
