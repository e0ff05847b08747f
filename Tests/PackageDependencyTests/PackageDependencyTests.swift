/*
Abstract:
A package of someone's own that depends on this one by path builds, imports the frameworks, and talks to a running service.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("A package that depends on this one", .serialized, .timeLimit(.minutes(10)))
struct PackageDependencyTests {
    /// This package's folder: the test file is `Tests/PackageDependencyTests/` inside it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "A package depending on this one by path imports the frameworks, os.log and System, and reaches the service")
    func dependsByPath() async throws {
        // Inside this package's build folder, so that a second run builds only what changed. SwiftPM
        // keeps a path dependency's list of source files in the dependent's build folder, so a file
        // added here since the last run would be missing from it: a new file list gets a new folder.
        let checks = Self.packageRoot.appendingPathComponent(".build/package-dependency-check")
        let folder = checks.appendingPathComponent(Self.sourceListFingerprint())
        for stale in (try? FileManager.default.contentsOfDirectory(atPath: checks.path)) ?? [] where stale != folder.lastPathComponent {
            try? FileManager.default.removeItem(at: checks.appendingPathComponent(stale))
        }
        let dependent = folder.appendingPathComponent(Self.executable)
        try writeDependentPackage(at: dependent)
        // At the lowest priority: the tests that run beside this one time transfers and deadlines.
        let scratch = dependent.appendingPathComponent(".build")
        let build = try await runCommand(
            "nice",
            arguments: [
                "-n", "19", "swift", "build", "--package-path", dependent.path, "--scratch-path", scratch.path,
                "--product", Self.executable, "-Xswiftc", "-warnings-as-errors",
            ],
            timeout: .seconds(540))
        #expect(
            build.status.isSuccess,
            "swift build of the dependent package: \(build.standardOutput.suffix(3000)) \(build.standardError.suffix(2000))")
        guard build.status.isSuccess else { return }

        let deviceRoot = try TemporaryDeviceRoot()
        try await withService(deviceRoot: deviceRoot.url, configuration: [:]) { _ in
            let environment = ServiceProcess.environment(for: deviceRoot.url)
                .merging(["BA_BUNDLE_IDENTIFIER": "com.example.MyApp"]) { $1 }
            let run = try await runCommand(
                scratch.appendingPathComponent("debug/\(Self.executable)").path, environment: environment,
                timeout: .seconds(30))
            #expect(run.status.isSuccess, "\(Self.executable): \(run.standardError)")
            #expect(run.standardOutput.contains("current downloads: 0"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("error domain: BGTaskSchedulerErrorDomain"), "\(run.standardOutput)")
            #expect(run.standardError.contains("[app] notice: Connected; 00 downloads."), "\(run.standardError)")
            #expect(run.standardError.contains("[app] Slides go in Slides/intro.pdf."), "\(run.standardError)")
        }
    }

    /// The dependent package's executable target. SwiftPM refuses two packages of one graph declaring a
    /// target of the same name, so this is none the sample's app could be renamed to: a copy renamed as
    /// Docs/UsingAsTemplate.md says declares `my-app` itself.
    static let executable = "dependency-check-app"

    /// A name for the set of source files under `Shared/` and the manifest (FNV-1a of their sorted paths and its text).
    static func sourceListFingerprint() -> String {
        let shared = packageRoot.appendingPathComponent("Shared")
        // C targets count as Swift files do, and so does the manifest: a C target moved under Shared
        // and made a dependency left a kept build without its module, which it did not rebuild.
        let sourceSuffixes = [".swift", ".c", ".h", ".modulemap"]
        let paths = (FileManager.default.subpaths(atPath: shared.path) ?? [])
            .filter { path in sourceSuffixes.contains { path.hasSuffix($0) } }.sorted()
        let manifest = (try? String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        return String(FNV1a.hash((paths + [manifest]).joined(separator: "\n")), radix: 16)
    }

    /// Writes the package a developer would write: the frameworks as products of this package, by path.
    private func writeDependentPackage(at folder: URL) throws {
        let sources = folder.appendingPathComponent("Sources/\(Self.executable)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // A package depended on by path is known by its folder's name.
        let identity = Self.packageRoot.lastPathComponent.lowercased()
        try Self.write(
            """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "MyApp",
                dependencies: [.package(path: "\(Self.packageRoot.path)")],
                targets: [
                    .executableTarget(
                        name: "\(Self.executable)",
                        dependencies: [
                            .product(name: "BackgroundAssets", package: "\(identity)"),
                            .product(name: "BackgroundTasks", package: "\(identity)"),
                            .product(name: "OSLog", package: "\(identity)"),
                            .product(name: "os", package: "\(identity)"),
                            .product(name: "System", package: "\(identity)"),
                        ],
                        path: "Sources/\(Self.executable)"
                    ),
                ]
            )

            """, to: folder.appendingPathComponent("Package.swift"))
        try Self.write(
            """
            import BackgroundAssets
            import BackgroundTasks
            import OSLog
            import os.log
            import System

            let logger = Logger(subsystem: "com.example.MyApp", category: "app")
            let folder: FilePath = "Slides"
            os_log("Slides go in %{public}@.", log: OSLog(subsystem: "com.example.MyApp", category: "app"), type: .info,
                   folder.appending("intro.pdf").string)
            do {
                let downloads = try BADownloadManager.shared.fetchCurrentDownloads()
                logger.notice("Connected; \\(downloads.count, format: .decimal(minDigits: 2)) downloads.")
                print("current downloads: \\(downloads.count)")
                print("error domain: \\(BGTaskScheduler.errorDomain)")
            } catch {
                print("The service could not be reached: \\(error)")
                exit(1)
            }

            """, to: sources.appendingPathComponent("main.swift"))
    }

    /// Writes a file only when its contents change, so an unchanged package is not rebuilt.
    private static func write(_ text: String, to file: URL) throws {
        let data = Data(text.utf8)
        guard (try? Data(contentsOf: file)) != data else { return }
        try data.write(to: file)
    }
}
