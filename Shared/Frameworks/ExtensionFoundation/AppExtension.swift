/*
Abstract:
Apple's AppExtension: the entry point of an app extension, which a downloader extension adopts through its protocol.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An interface you use to declare the content, structure, and behavior of an app extension, as
/// ExtensionFoundation's `AppExtension` on Apple platforms.
///
/// A Background Assets downloader extension adopts it through `BADownloaderExtension`, which supplies
/// the configuration and the entry point, so the extension's file is what Apple's template writes:
/// ```swift
/// import BackgroundAssets
/// import ExtensionFoundation
///
/// @main
/// struct DownloaderExtension: BADownloaderExtension { ... }
/// ```
/// - Note: Linux has no extension points. The system service plays the Background Assets extension
///   point's host, and `BADownloaderExtension` provides the `main()` that reaches it; an extension of
///   any other kind has no host here, and its `main()` says so.
public protocol AppExtension {
    /// The type of the extension's configuration, which Swift infers from ``configuration``.
    associatedtype Configuration: AppExtensionConfiguration

    /// The configuration details for this app extension.
    @MainActor @preconcurrency var configuration: Configuration { get }

    /// Initializes the app extension and prepares it to run.
    @MainActor @preconcurrency init()
}

extension AppExtension {
    /// The main entry point for an app extension that doesn't present any UI.
    ///
    /// Don't call it: the host's launch of the extension does, through `@main`.
    /// - Throws: Nothing here: an extension whose protocol supplies no entry point of its own has no
    ///   host on this system, and exits with status 69 (`EX_UNAVAILABLE`) after saying so.
    public static func main() throws {
        let message = "\(Self.self) is an app extension whose extension point has no host on this system; only "
            + "Background Assets downloader extensions (BADownloaderExtension) are launched here, by the system service.\n"
        _ = Array(message.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(69)
    }
}
