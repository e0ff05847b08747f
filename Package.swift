// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "WWDCSessions",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "asset-server", targets: ["asset-server"]),
        .executable(name: "ba-package", targets: ["ba-package"]),
        .executable(name: "backgroundassetsd", targets: ["backgroundassetsd"]),
        .executable(name: "backgroundassets-debug", targets: ["backgroundassets-debug"]),
        .executable(name: "wwdc-sessions", targets: ["wwdc-sessions"]),
        .executable(name: "wwdc-sessions-extension", targets: ["wwdc-sessions-extension"]),
        .executable(name: "wwdc-sessions-demo", targets: ["wwdc-sessions-demo"]),
        .executable(name: "wwdc-slides", targets: ["wwdc-slides"]),
        .executable(name: "wwdc-slides-extension", targets: ["wwdc-slides-extension"]),
        .library(name: "SessionKit", targets: ["SessionKit"]),
        // The frameworks, for a package of your own that depends on this one by path or URL.
        .library(name: "BackgroundAssets", targets: ["BackgroundAssets"]),
        .library(name: "BackgroundTasks", targets: ["BackgroundTasks"]),
        .library(name: "OSLog", targets: ["OSLog"]),
        .library(name: "os", targets: ["os"]),
        .library(name: "System", targets: ["System"]),
        .library(name: "ExtensionFoundation", targets: ["ExtensionFoundation"]),
        .library(name: "BackgroundURLSessions", targets: ["BackgroundURLSessions"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        .library(name: "StoreKit", targets: ["StoreKit"]),
    ],
    dependencies: [],
    targets: [
        // MARK: - Shared

        .systemLibrary(
            name: "CCrypto",
            path: "Shared/Platform/CCrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Shared/Platform/COpenSSL",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "CConfinedOpen",
            path: "Shared/Platform/CConfinedOpen"
        ),
        .target(
            name: "DevicePlatform",
            dependencies: ["CConfinedOpen"],
            path: "Shared/Platform/DevicePlatform"
        ),
        .target(
            name: "TLS",
            dependencies: ["DevicePlatform", "COpenSSL"],
            path: "Shared/Platform/TLS"
        ),
        .target(
            name: "HTTPCore",
            dependencies: ["DevicePlatform", "TLS"],
            path: "Shared/Platform/HTTPCore"
        ),
        .target(
            name: "ArgumentParsing",
            path: "Shared/Platform/ArgumentParsing"
        ),
        .target(
            name: "BackgroundAssetsIPC",
            dependencies: ["DevicePlatform"],
            path: "Shared/Platform/BackgroundAssetsIPC"
        ),
        .target(
            name: "ServiceClient",
            dependencies: ["BackgroundAssetsIPC"],
            path: "Shared/Platform/ServiceClient"
        ),
        .target(
            name: "AssetPackFormat",
            dependencies: ["BackgroundAssetsIPC"],
            path: "Shared/Platform/AssetPackFormat"
        ),
        .target(
            name: "SystemLogging",
            dependencies: ["DevicePlatform"],
            path: "Shared/Platform/SystemLogging"
        ),
        .target(
            name: "FoundationFixes",
            dependencies: ["DevicePlatform"],
            path: "Shared/Frameworks/FoundationFixes"
        ),
        .target(
            name: "OSLog",
            dependencies: ["BackgroundAssetsIPC", "FoundationFixes", "ServiceClient", "SystemLogging"],
            path: "Shared/Frameworks/OSLog"
        ),
        // `import os` and `import os.log`: the C module map declares the module `os` with its
        // submodules, and the Swift module of the same name re-exports OSLog on top of it.
        .target(
            name: "COSModule",
            path: "Shared/Frameworks/COSModule"
        ),
        .target(
            name: "os",
            dependencies: ["COSModule", "OSLog"],
            path: "Shared/Frameworks/os"
        ),
        .target(
            name: "System",
            path: "Shared/Frameworks/System"
        ),
        .target(
            name: "ExtensionFoundation",
            path: "Shared/Frameworks/ExtensionFoundation"
        ),
        .target(
            name: "CInstalledBundleLaunch",
            path: "Shared/Frameworks/CInstalledBundleLaunch"
        ),
        .target(
            name: "URLChallengeBridge",
            dependencies: ["BackgroundAssetsIPC"],
            path: "Shared/Platform/URLChallengeBridge"
        ),
        .target(
            name: "BackgroundAssets",
            dependencies: ["AssetPackFormat", "BackgroundAssetsIPC", "CInstalledBundleLaunch", "ExtensionFoundation",
                           "FoundationFixes", "ServiceClient", "System", "URLChallengeBridge"],
            path: "Shared/Frameworks/BackgroundAssets"
        ),
        .target(
            name: "BackgroundTasks",
            dependencies: ["BackgroundAssets", "BackgroundAssetsIPC", "FoundationFixes", "ServiceClient"],
            path: "Shared/Frameworks/BackgroundTasks"
        ),
        .target(
            name: "BackgroundURLSessionDelegates",
            path: "Shared/Frameworks/BackgroundURLSessionDelegates"
        ),
        .target(
            name: "BackgroundURLSessions",
            dependencies: [
                "BackgroundAssets", "BackgroundAssetsIPC", "BackgroundURLSessionDelegates", "FoundationFixes", "URLChallengeBridge",
                "ServiceClient",
            ],
            path: "Shared/Frameworks/BackgroundURLSessions"
        ),
        .target(
            name: "UserNotifications",
            dependencies: ["BackgroundAssets", "BackgroundAssetsIPC", "FoundationFixes", "ServiceClient"],
            path: "Shared/Frameworks/UserNotifications"
        ),
        // StoreKit's StoreDownloaderExtension, for the extensions of apps whose packs Apple hosts.
        .target(
            name: "StoreKit",
            dependencies: ["BackgroundAssets"],
            path: "Shared/Frameworks/StoreKit"
        ),
        .target(
            name: "SessionKit",
            // What SessionKit imports on Linux only: the stand-in for Foundation's app group
            // containers, libcrypto where CryptoKit does not exist, and TLS and HTTP for the device's CAs.
            // On Apple platforms it needs Foundation and CryptoKit alone, so it can be copied into an
            // Xcode project as it is.
            dependencies: [
                .target(name: "BackgroundAssets", condition: .when(platforms: [.linux])),
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
                .target(name: "BackgroundAssetsIPC", condition: .when(platforms: [.linux])),
                .target(name: "TLS", condition: .when(platforms: [.linux])),
                .target(name: "HTTPCore", condition: .when(platforms: [.linux])),
            ],
            path: "Shared/SessionKit"
        ),

        // MARK: - App

        .executableTarget(
            name: "wwdc-sessions",
            dependencies: ["ArgumentParsing", "BackgroundAssets", "BackgroundTasks", "OSLog", "SessionKit"],
            path: "App",
            exclude: ["Info.plist", "BackgroundGame", "WWDCSlides"]
        ),
        // The second sample: a game whose data arrives with a background URLSession.
        .executableTarget(
            name: "background-game",
            dependencies: [
                "ArgumentParsing", "BackgroundAssets", "BackgroundTasks", "BackgroundURLSessions", "SessionKit",
                "UserNotifications",
            ],
            path: "App/BackgroundGame",
            exclude: ["Info.plist"]
        ),
        // The sample's sessions as managed asset packs: slides, transcripts and the session list.
        .executableTarget(
            name: "wwdc-slides",
            dependencies: ["ArgumentParsing", "BackgroundAssets"],
            path: "App/WWDCSlides",
            exclude: ["Info.plist"]
        ),

        // MARK: - Extension

        .executableTarget(
            name: "wwdc-sessions-extension",
            dependencies: ["BackgroundAssets", "OSLog", "SessionKit"],
            path: "Extension",
            exclude: ["Info.plist", "WWDCSlides"]
        ),
        .executableTarget(
            name: "wwdc-slides-extension",
            dependencies: ["BackgroundAssets", "OSLog"],
            path: "Extension/WWDCSlides",
            exclude: ["Info.plist"]
        ),

        // MARK: - Server

        .target(
            name: "ServerRuntime",
            dependencies: ["DevicePlatform"],
            path: "Server/ServerRuntime"
        ),
        .target(
            name: "AssetPackArchive",
            dependencies: ["AssetPackFormat", "BackgroundAssetsIPC", "CCrypto"],
            path: "Server/AssetPackArchive"
        ),
        .target(
            name: "AssetServer",
            dependencies: [
                "AssetPackArchive", "AssetPackFormat", "BackgroundAssetsIPC", "CConfinedOpen", "DevicePlatform", "HTTPCore",
                "ServerRuntime", "SessionKit", "SystemLogging", "TLS",
            ],
            path: "Server/CDN/AssetServer"
        ),
        .executableTarget(
            name: "asset-server",
            dependencies: ["ArgumentParsing", "AssetServer", "ServerRuntime", "TLS"],
            path: "Server/CDN/asset-server"
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Server/System/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "CCrashMarker",
            path: "Server/System/CCrashMarker"
        ),
        .target(
            name: "BackgroundAssetsDaemon",
            dependencies: [
                "AssetPackArchive", "AssetPackFormat", "BackgroundAssetsIPC", "CCrashMarker", "CSQLite", "DevicePlatform",
                "HTTPCore", "ServerRuntime", "SystemLogging", "TLS",
            ],
            path: "Server/System/BackgroundAssetsDaemon"
        ),
        .executableTarget(
            name: "backgroundassetsd",
            dependencies: ["ArgumentParsing", "BackgroundAssetsDaemon", "BackgroundAssetsIPC", "ServerRuntime"],
            path: "Server/System/backgroundassetsd"
        ),
        .target(
            name: "BackgroundAssetsDebugTool",
            dependencies: ["ArgumentParsing", "BackgroundAssetsIPC", "HTTPCore", "ServiceClient", "TLS"],
            path: "Server/System/BackgroundAssetsDebugTool"
        ),
        .executableTarget(
            name: "backgroundassets-debug",
            dependencies: ["BackgroundAssetsDebugTool", "ServerRuntime"],
            path: "Server/System/backgroundassets-debug"
        ),
        .target(
            name: "AssetPackagingTool",
            dependencies: ["ArgumentParsing", "AssetPackArchive", "AssetPackFormat", "BackgroundAssetsIPC"],
            path: "Server/DeveloperTools/AssetPackagingTool"
        ),
        .executableTarget(
            name: "ba-package",
            dependencies: ["AssetPackagingTool"],
            path: "Server/DeveloperTools/ba-package"
        ),
        .executableTarget(
            name: "wwdc-sessions-demo",
            dependencies: ["ArgumentParsing", "AssetServer", "BackgroundAssetsIPC", "ServerRuntime"],
            path: "Server/Demo/wwdc-sessions-demo"
        ),

        // MARK: - Tests

        .target(
            name: "TestSupport",
            dependencies: ["BackgroundAssetsIPC", "SystemLogging", "TLS"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "SessionKitTests",
            dependencies: ["BackgroundAssetsIPC", "SessionKit", "TestSupport", "TLS"],
            path: "Tests/SessionKitTests"
        ),
        .testTarget(
            name: "AssetServerTests",
            dependencies: [
                "AssetPackArchive", "AssetPackFormat", "AssetServer", "HTTPCore", "ServerRuntime", "SessionKit", "SystemLogging", "TestSupport",
                "TLS",
            ],
            path: "Tests/AssetServerTests"
        ),
        .testTarget(
            name: "AssetPackArchiveTests",
            dependencies: ["ArgumentParsing", "AssetPackArchive", "AssetPackagingTool", "AssetPackFormat", "TestSupport"],
            path: "Tests/AssetPackArchiveTests"
        ),
        .testTarget(
            name: "BackgroundAssetsTests",
            dependencies: ["AssetPackFormat", "BackgroundAssets", "BackgroundAssetsIPC", "ServiceClient", "TestSupport"],
            path: "Tests/BackgroundAssetsTests"
        ),
        .testTarget(
            name: "BackgroundTasksTests",
            dependencies: ["BackgroundTasks", "BackgroundAssetsIPC", "TestSupport"],
            path: "Tests/BackgroundTasksTests"
        ),
        .testTarget(
            name: "BackgroundURLSessionsTests",
            dependencies: [
                "BackgroundAssets", "BackgroundAssetsIPC", "BackgroundTasks", "BackgroundURLSessions", "TestSupport",
                "UserNotifications",
            ],
            path: "Tests/BackgroundURLSessionsTests"
        ),
        .testTarget(
            name: "UserNotificationsTests",
            dependencies: ["BackgroundAssetsIPC", "TestSupport", "UserNotifications"],
            path: "Tests/UserNotificationsTests"
        ),
        .testTarget(
            name: "AppleAPITests",
            dependencies: ["BackgroundAssets", "ExtensionFoundation", "OSLog", "System", "os"],
            path: "Tests/AppleAPITests"
        ),
        // The same file as AppleAPITests (a symlink), compiled in Swift 5 language mode.
        .testTarget(
            name: "AppleAPISwift5Tests",
            dependencies: [
                "BackgroundAssets", "BackgroundTasks", "BackgroundURLSessions", "ExtensionFoundation", "OSLog", "System",
                "UserNotifications", "os",
            ],
            path: "Tests/AppleAPISwift5Tests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "OSLogTests",
            dependencies: ["BackgroundAssetsIPC", "OSLog", "SystemLogging", "TestSupport"],
            path: "Tests/OSLogTests"
        ),
        // Apple-style logging and signposts in a process of a device, for OSLogTests.
        .executableTarget(
            name: "signpost-probe",
            dependencies: ["os"],
            path: "Tests/signpost-probe"
        ),
        .testTarget(
            name: "BackgroundAssetsIPCTests",
            dependencies: ["BackgroundAssetsIPC", "TestSupport"],
            path: "Tests/BackgroundAssetsIPCTests",
            exclude: ["GoldenFrames"]
        ),
        .testTarget(
            name: "ArgumentParsingTests",
            dependencies: ["ArgumentParsing", "TestSupport"],
            path: "Tests/ArgumentParsingTests"
        ),
        .testTarget(
            name: "TLSTests",
            dependencies: ["COpenSSL", "DevicePlatform", "TLS", "TestSupport"],
            path: "Tests/TLSTests"
        ),
        .testTarget(
            name: "BackgroundAssetsDaemonTests",
            dependencies: [
                "AssetPackArchive", "AssetPackFormat", "BackgroundAssetsDaemon", "BackgroundAssetsIPC", "DevicePlatform",
                "HTTPCore", "ServerRuntime", "TestSupport", "TLS",
            ],
            path: "Tests/BackgroundAssetsDaemonTests"
        ),
        .testTarget(
            name: "BackgroundAssetsDebugToolTests",
            dependencies: ["BackgroundAssetsDebugTool", "BackgroundAssetsIPC", "HTTPCore", "TestSupport", "TLS"],
            path: "Tests/BackgroundAssetsDebugToolTests"
        ),
        .executableTarget(
            name: "exclusive-control-probe",
            dependencies: ["ArgumentParsing", "BackgroundAssets"],
            path: "Tests/exclusive-control-probe"
        ),
        .executableTarget(
            name: "asset-pack-unpack-probe",
            dependencies: ["ArgumentParsing", "AssetPackArchive", "AssetPackFormat"],
            path: "Tests/asset-pack-unpack-probe"
        ),
        // Every parser of outside data fed arbitrary bytes: Tests/Fuzz/run-fuzzers.sh builds it with
        // libFuzzer in .build-fuzz; the normal build compiles it as a tool that replays inputs.
        .executableTarget(
            name: "Fuzz",
            dependencies: [
                "AssetPackArchive", "AssetPackFormat", "BackgroundAssetsDaemon", "BackgroundAssetsIPC", "HTTPCore", "SessionKit",
            ],
            path: "Tests/Fuzz",
            exclude: ["run-fuzzers.sh"]
        ),
        .target(
            name: "LifecycleTestKit",
            path: "Tests/LifecycleTestKit"
        ),
        .executableTarget(
            name: "url-session-test-app",
            dependencies: ["ArgumentParsing", "BackgroundAssetsIPC", "BackgroundURLSessions", "LifecycleTestKit", "UserNotifications"],
            path: "Tests/url-session-test-app"
        ),
        .executableTarget(
            name: "task-test-app",
            dependencies: ["ArgumentParsing", "BackgroundAssets", "BackgroundAssetsIPC", "BackgroundTasks"],
            path: "Tests/task-test-app"
        ),
        // Apple-style code written from Apple's documentation, kept compiling in both language modes:
        // the app and the extension run end to end; the -swift5 twins build the same files (symbolic
        // links) in Swift 5 mode.
        .executableTarget(
            name: "apple-style-app",
            dependencies: ["BackgroundAssets", "BackgroundTasks", "OSLog"],
            path: "Tests/apple-style-app"
        ),
        .executableTarget(
            name: "apple-style-extension",
            dependencies: ["BackgroundAssets", "ExtensionFoundation", "OSLog"],
            path: "Tests/apple-style-extension"
        ),
        .executableTarget(
            name: "apple-style-app-swift5",
            dependencies: ["BackgroundAssets", "BackgroundTasks", "OSLog"],
            path: "Tests/apple-style-app-swift5",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "apple-style-extension-swift5",
            dependencies: ["BackgroundAssets", "ExtensionFoundation", "OSLog"],
            path: "Tests/apple-style-extension-swift5",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "lifecycle-test-app",
            dependencies: ["ArgumentParsing", "BackgroundAssets", "LifecycleTestKit", "SessionKit"],
            path: "Tests/lifecycle-test-app"
        ),
        .executableTarget(
            name: "lifecycle-test-extension",
            dependencies: ["BackgroundAssets", "LifecycleTestKit", "SessionKit"],
            path: "Tests/lifecycle-test-extension"
        ),
        // Builds a package of its own that depends on this one by path, as a developer's would.
        .testTarget(
            name: "PackageDependencyTests",
            dependencies: ["BackgroundAssetsIPC", "TestSupport"],
            path: "Tests/PackageDependencyTests"
        ),
        // The docs that describe code, checked against it: Architecture.md's module table against
        // this file, its wire tables against the protocol's cases (and written from them).
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["BackgroundAssetsDebugTool", "BackgroundAssetsIPC"],
            path: "Tests/DocumentationTests"
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["BackgroundAssetsIPC", "LifecycleTestKit", "SessionKit", "TestSupport", "TLS"],
            path: "Tests/EndToEndTests"
        ),
        // An app that uses AssetPackManager as a test tells it, and a managed extension, for the
        // asset-pack tests.
        .executableTarget(
            name: "asset-pack-test-app",
            dependencies: ["ArgumentParsing", "BackgroundAssets"],
            path: "Tests/asset-pack-test-app"
        ),
        .executableTarget(
            name: "asset-pack-test-extension",
            dependencies: ["BackgroundAssets"],
            path: "Tests/asset-pack-test-extension"
        ),
        // The extension of an Apple-hosted app, written as Apple's session shows it, with StoreKit.
        .executableTarget(
            name: "asset-pack-test-store-extension",
            dependencies: ["BackgroundAssets", "StoreKit"],
            path: "Tests/asset-pack-test-store-extension"
        ),
    ],
    swiftLanguageModes: [.v6]
)
