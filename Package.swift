// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "WWDCSessions",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "asset-server", targets: ["asset-server"]),
        .executable(name: "backgroundassetsd", targets: ["backgroundassetsd"]),
        .executable(name: "backgroundassets-debug", targets: ["backgroundassets-debug"]),
        .executable(name: "wwdc-sessions", targets: ["wwdc-sessions"]),
        .executable(name: "wwdc-sessions-extension", targets: ["wwdc-sessions-extension"]),
        .executable(name: "wwdc-sessions-demo", targets: ["wwdc-sessions-demo"]),
        .library(name: "SessionKit", targets: ["SessionKit"]),
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
            name: "TLS",
            dependencies: ["COpenSSL"],
            path: "Shared/Platform/TLS"
        ),
        .target(
            name: "ArgumentParsing",
            path: "Shared/Platform/ArgumentParsing"
        ),
        .target(
            name: "BackgroundAssetsIPC",
            path: "Shared/Platform/BackgroundAssetsIPC"
        ),
        .target(
            name: "SystemLogging",
            dependencies: ["BackgroundAssetsIPC"],
            path: "Shared/Platform/SystemLogging"
        ),
        .target(
            name: "OSLog",
            dependencies: ["SystemLogging"],
            path: "Shared/Frameworks/OSLog"
        ),
        .target(
            name: "CInstalledBundleLaunch",
            path: "Shared/Frameworks/CInstalledBundleLaunch"
        ),
        .target(
            name: "BackgroundAssets",
            dependencies: ["BackgroundAssetsIPC", "CInstalledBundleLaunch"],
            path: "Shared/Frameworks/BackgroundAssets"
        ),
        .target(
            name: "BackgroundTasks",
            dependencies: ["BackgroundAssets", "BackgroundAssetsIPC"],
            path: "Shared/Frameworks/BackgroundTasks"
        ),
        .target(
            name: "SessionKit",
            // What SessionKit imports on Linux only: the stand-in for Foundation's app group
            // containers, libcrypto where CryptoKit does not exist, and TLS for the device's CAs. On Apple platforms it needs
            // Foundation and CryptoKit alone, so it can be copied into an Xcode project as it is.
            dependencies: [
                .target(name: "BackgroundAssets", condition: .when(platforms: [.linux])),
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
                .target(name: "BackgroundAssetsIPC", condition: .when(platforms: [.linux])),
                .target(name: "TLS", condition: .when(platforms: [.linux])),
            ],
            path: "Shared/SessionKit"
        ),

        // MARK: - App

        .executableTarget(
            name: "wwdc-sessions",
            dependencies: ["ArgumentParsing", "BackgroundAssets", "BackgroundTasks", "OSLog", "SessionKit"],
            path: "App",
            exclude: ["Info.plist"]
        ),

        // MARK: - Extension

        .executableTarget(
            name: "wwdc-sessions-extension",
            dependencies: ["BackgroundAssets", "OSLog", "SessionKit"],
            path: "Extension",
            exclude: ["Info.plist"]
        ),

        // MARK: - Server

        .target(
            name: "HTTPCore",
            path: "Server/HTTPCore"
        ),
        .target(
            name: "CConfinedOpen",
            path: "Server/CDN/CConfinedOpen"
        ),
        .target(
            name: "AssetServer",
            dependencies: ["BackgroundAssetsIPC", "CConfinedOpen", "HTTPCore", "SessionKit", "SystemLogging", "TLS"],
            path: "Server/CDN/AssetServer"
        ),
        .executableTarget(
            name: "asset-server",
            dependencies: ["ArgumentParsing", "AssetServer", "HTTPCore", "TLS"],
            path: "Server/CDN/asset-server"
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Server/System/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "BackgroundAssetsDaemon",
            dependencies: ["BackgroundAssetsIPC", "CSQLite", "HTTPCore", "SystemLogging", "TLS"],
            path: "Server/System/BackgroundAssetsDaemon"
        ),
        .executableTarget(
            name: "backgroundassetsd",
            dependencies: ["ArgumentParsing", "BackgroundAssetsDaemon", "BackgroundAssetsIPC", "HTTPCore"],
            path: "Server/System/backgroundassetsd"
        ),
        .target(
            name: "BackgroundAssetsDebugTool",
            dependencies: ["ArgumentParsing", "BackgroundAssets", "BackgroundAssetsIPC", "TLS"],
            path: "Server/System/BackgroundAssetsDebugTool"
        ),
        .executableTarget(
            name: "backgroundassets-debug",
            dependencies: ["BackgroundAssetsDebugTool"],
            path: "Server/System/backgroundassets-debug"
        ),
        .executableTarget(
            name: "wwdc-sessions-demo",
            dependencies: ["ArgumentParsing", "AssetServer", "BackgroundAssetsIPC", "HTTPCore"],
            path: "Server/Demo/wwdc-sessions-demo"
        ),

        // MARK: - Tests

        .target(
            name: "TestSupport",
            dependencies: ["SystemLogging"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "SessionKitTests",
            dependencies: ["SessionKit", "TestSupport"],
            path: "Tests/SessionKitTests"
        ),
        .testTarget(
            name: "AssetServerTests",
            dependencies: ["AssetServer", "HTTPCore", "SessionKit", "TestSupport", "TLS"],
            path: "Tests/AssetServerTests"
        ),
        .testTarget(
            name: "BackgroundAssetsTests",
            dependencies: ["BackgroundAssets", "BackgroundAssetsIPC"],
            path: "Tests/BackgroundAssetsTests"
        ),
        .testTarget(
            name: "BackgroundTasksTests",
            dependencies: ["BackgroundTasks", "BackgroundAssetsIPC"],
            path: "Tests/BackgroundTasksTests"
        ),
        .testTarget(
            name: "AppleAPITests",
            dependencies: ["BackgroundAssets", "OSLog"],
            path: "Tests/AppleAPITests"
        ),
        // The same file as AppleAPITests (a symlink), compiled in Swift 5 language mode.
        .testTarget(
            name: "AppleAPISwift5Tests",
            dependencies: ["BackgroundAssets", "OSLog"],
            path: "Tests/AppleAPISwift5Tests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "OSLogTests",
            dependencies: ["OSLog", "SystemLogging"],
            path: "Tests/OSLogTests"
        ),
        .testTarget(
            name: "BackgroundAssetsIPCTests",
            dependencies: ["BackgroundAssetsIPC", "TestSupport"],
            path: "Tests/BackgroundAssetsIPCTests",
            exclude: ["GoldenFrames"]
        ),
        .testTarget(
            name: "TLSTests",
            dependencies: ["TLS", "TestSupport"],
            path: "Tests/TLSTests"
        ),
        .testTarget(
            name: "BackgroundAssetsDaemonTests",
            dependencies: ["BackgroundAssetsDaemon", "BackgroundAssetsIPC", "HTTPCore", "TestSupport", "TLS"],
            path: "Tests/BackgroundAssetsDaemonTests"
        ),
        .testTarget(
            name: "BackgroundAssetsDebugToolTests",
            dependencies: ["BackgroundAssetsDebugTool", "BackgroundAssetsIPC", "TestSupport", "TLS"],
            path: "Tests/BackgroundAssetsDebugToolTests"
        ),
        .executableTarget(
            name: "exclusive-control-probe",
            dependencies: ["BackgroundAssets"],
            path: "Tests/exclusive-control-probe"
        ),
        .target(
            name: "LifecycleTestKit",
            path: "Tests/LifecycleTestKit"
        ),
        .executableTarget(
            name: "task-test-app",
            dependencies: ["BackgroundAssets", "BackgroundAssetsIPC", "BackgroundTasks"],
            path: "Tests/task-test-app"
        ),
        .executableTarget(
            name: "lifecycle-test-app",
            dependencies: ["BackgroundAssets", "LifecycleTestKit", "SessionKit"],
            path: "Tests/lifecycle-test-app"
        ),
        .executableTarget(
            name: "lifecycle-test-extension",
            dependencies: ["BackgroundAssets", "LifecycleTestKit", "SessionKit"],
            path: "Tests/lifecycle-test-extension"
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["BackgroundAssetsIPC", "LifecycleTestKit", "SessionKit", "TestSupport", "TLS"],
            path: "Tests/EndToEndTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
