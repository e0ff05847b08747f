/*
Abstract:
The commented packaging manifest that `ba-package template` writes, ready to fill in.
*/

/// The template a developer fills in for each pack, with the rules in its comments.
enum PackagingManifestTemplate {
    static let text = """
        {
            // The identifier your code passes to AssetPackManager, for example "Tutorial". Letters, digits,
            // ".", "-" and "_"; it also names the pack's file on your server.
            "assetPackID": "[Asset-Pack ID]",

            // The pack's version. Package a higher number to update the pack on devices that have it.
            "version": 1,

            // Exactly one of "essential", "prefetch" or "onDemand".
            // - essential: downloaded during the install; the app cannot launch until the pack is there.
            // - prefetch: downloaded right after the install, in the background.
            // - onDemand: downloaded only when the app calls ensureLocalAvailability(of:); its value is {}.
            // essential and prefetch list the installation events they apply to: "firstInstallation"
            // (a new install), "subsequentUpdate" (an app update), or both.
            "downloadPolicy": {
                "essential": {
                    "installationEventTypes": [
                        "firstInstallation",
                        "subsequentUpdate"
                    ]
                }
            },

            // The files and folders in the pack, as many as you like. Paths are relative to the folder you
            // run ba-package in, and are the paths your app reads them at. A directory selector includes
            // everything in the folder.
            "fileSelectors": [
                {
                    "file": "[Path to File]"
                },
                {
                    "directory": "[Path to Directory]"
                }
            ],

            // The platforms the pack is for: "iOS", "iPadOS", "macOS", "tvOS", "visionOS".
            "platforms": [
                "iOS",
                "macOS"
            ]
        }
        """
}
