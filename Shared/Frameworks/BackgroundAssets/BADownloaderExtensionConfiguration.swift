/*
Abstract:
The configuration of a downloader extension's connection to the system, with Apple's name.
*/

/// The configuration that connects a ``BADownloaderExtension`` to the system, as Apple's
/// `BADownloaderExtensionConfiguration` does.
///
/// On Apple platforms it refines ExtensionKit's `AppExtensionConfiguration`, and the extension point
/// uses it to deliver content requests and download events to the extension; an extension rarely
/// names it.
/// - Note: Linux has no ExtensionKit. Here ``BADownloaderExtension``'s `main()` plays the extension
///   point's part and connects to the system service itself, so nothing conforms to this protocol
///   in the framework; it exists so that Apple code that mentions it compiles.
@MainActor @preconcurrency
public protocol BADownloaderExtensionConfiguration: Sendable {}
