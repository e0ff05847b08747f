/*
Abstract:
The configurations of a downloader extension's connection to the system, with Apple's names.
*/

import ExtensionFoundation

/// The configuration that connects a ``BADownloaderExtension`` to the system, as Apple's
/// `BADownloaderExtensionConfiguration` does.
///
/// The protocol supplies one through its `configuration` property; an extension rarely names it.
/// - Note: On Apple platforms the extension point uses the configuration to deliver content requests
///   and download events to the extension. Here ``BADownloaderExtension``'s `main()` plays the
///   extension point's part and connects to the system service itself, so the configuration carries
///   nothing; it exists so that Apple code that mentions it compiles.
@MainActor @preconcurrency
public protocol BADownloaderExtensionConfiguration: AppExtensionConfiguration {}

/// The configuration of a ``ManagedDownloaderExtension``, as Apple's
/// `ManagedDownloaderExtensionConfiguration`.
/// - Note: Apple's declares a `downloadManagerDelegate` through which the system's implementation
///   hears about the packs' downloads; here the framework's managed extension reports them itself,
///   so the protocol has no requirements.
@MainActor @preconcurrency
public protocol ManagedDownloaderExtensionConfiguration: BADownloaderExtensionConfiguration {}

/// The configuration the system gives every downloader extension: the service's socket is the
/// extension point here, so there is nothing to configure.
struct SystemDownloaderExtensionConfiguration: ManagedDownloaderExtensionConfiguration {
    nonisolated init() {}
}

extension BADownloaderExtension {
    /// The system's configuration; don't implement this property.
    @MainActor @preconcurrency
    public var configuration: some BADownloaderExtensionConfiguration {
        SystemDownloaderExtensionConfiguration()
    }
}

extension ManagedDownloaderExtension {
    /// The system's configuration for a managed extension; don't implement this property.
    @MainActor @preconcurrency
    public var configuration: some ManagedDownloaderExtensionConfiguration {
        SystemDownloaderExtensionConfiguration()
    }
}
