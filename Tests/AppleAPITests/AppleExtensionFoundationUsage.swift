/*
Abstract:
A downloader extension's file as Apple's Background Download template writes it, with `import ExtensionFoundation`.
*/

// Apple's template imports ExtensionFoundation beside BackgroundAssets, because the extension's
// `main()` and `configuration` come from ExtensionFoundation's `AppExtension`. The types are not
// `@main` here (a test bundle has its own entry point); their `main()` is checked to be the
// downloader extension's.
import BackgroundAssets
import ExtensionFoundation
import Testing

/// An unmanaged extension, as the Self-Hosted, Unmanaged template writes it.
struct TemplateDownloaderExtension: BADownloaderExtension {
    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        []
    }

    func backgroundDownload(_ finishedDownload: BADownload, finishedWithFileURL fileURL: URL) {}

    func backgroundDownload(_ failedDownload: BADownload, failedWithError error: any Error) {}
}

/// A managed extension, as the Self-Hosted, Managed template writes it.
struct TemplateManagedExtension: ManagedDownloaderExtension {
    func shouldDownload(_ assetPack: AssetPack) -> Bool {
        true
    }
}

/// Code generic over any app extension, which a downloader extension satisfies.
func configurationTypeName<Extension: AppExtension>(of extensionType: Extension.Type) -> String {
    String(describing: Extension.Configuration.self)
}

@Suite("ExtensionFoundation, as Apple's template imports it")
struct AppleExtensionFoundationUsageTests {
    @Test("Downloader extensions are AppExtensions whose configuration the framework supplies")
    @MainActor
    func extensionsAreAppExtensions() {
        let unmanaged: any AppExtension = TemplateDownloaderExtension()
        let managed = TemplateManagedExtension()
        let configuration: some BADownloaderExtensionConfiguration = TemplateDownloaderExtension().configuration
        let managedConfiguration: some ManagedDownloaderExtensionConfiguration = managed.configuration
        #expect(unmanaged is TemplateDownloaderExtension)
        #expect(type(of: configuration) == type(of: managedConfiguration))
        #expect(!configurationTypeName(of: TemplateManagedExtension.self).isEmpty)
        #expect(TemplateManagedExtension.adoptsManagedProtocol && !TemplateDownloaderExtension.adoptsManagedProtocol)
    }
}
