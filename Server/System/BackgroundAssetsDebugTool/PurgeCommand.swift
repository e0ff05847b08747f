/*
Abstract:
`purge`: simulates storage pressure by emptying the caches of app group containers.
*/

import BackgroundAssetsIPC
import Foundation

/// Deletes what apps keep in `Library/Caches/` of their app group containers, as the system may
/// when storage runs low; an app must notice its missing files and download them again.
struct PurgeCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "purge", abstract: "Simulate storage pressure: empty the caches of app group containers.",
        discussion: """
            Deletes everything in each container's Library/Caches/ except the files the service is
            handing over right now (Library/Caches/com.apple.BackgroundAssets/), then has the service
            remove managed asset packs as storage pressure would: on-demand packs first, then prefetch
            packs, least recently used first, never an essential pack.
            """)

    /// The folder of files in the middle of a hand-over, which a purge must not pull away.
    static let handOverFolder = "com.apple.BackgroundAssets"

    @Option(appBundleID: "Only the app group container of this installed app.", traits: [.oneOf("container")])
    var bundleIdentifier: String?
    @Option(
        "--app-group", valueName: "GROUP", help: "Only this app group's container.", defaultDescription: "every container",
        traits: [.oneOf("container")])
    var appGroup: String?
    @Option(
        "--asset-pack-bytes", valueName: "BYTES", help: "Remove only enough managed asset packs to free this many bytes.",
        defaultDescription: "every pack it may remove", as: .number(in: 0...Int64.max, expected: "a number of bytes"))
    var assetPackBytes: Int64?

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let paths = context.paths
        let groups: [String]
        var appGroup = appGroup
        if let bundleIdentifier {
            appGroup = try await Self.appGroup(of: bundleIdentifier, in: context)
        }
        if let appGroup {
            guard let container = paths.container(forAppGroup: appGroup),
                  FileManager.default.fileExists(atPath: container.path) else {
                throw DebugToolError(
                    "The device root \(paths.root.path) has no container for the app group \(appGroup.debugDescription). "
                        + "Check the name (status lists the app groups of downloads) or BA_DEVICE_ROOT.")
            }
            groups = [appGroup]
        } else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.containersDirectory.path)) ?? []
            groups = names.filter(DevicePaths.isSafePathComponent).sorted()
        }
        for group in groups {
            guard let caches = paths.container(forAppGroup: group)?.appending(path: "Library/Caches") else { continue }
            let (files, bytes) = try Self.empty(caches)
            context.console.output("Purged \(files) file(s), \(bytes) bytes, from the caches of \(group).")
        }
        if groups.isEmpty { context.console.output("No app group containers in \(paths.root.path): nothing to purge.") }
        try await purgeAssetPacks(groups: groups, in: context)
        return .success
    }

    /// Has the service remove the managed asset packs of the purged containers' apps, as storage
    /// pressure would; says nothing when it removed none.
    private func purgeAssetPacks(groups: [String], in context: ToolContext) async throws {
        let connection = context.connection()
        defer { connection.disconnect() }
        let status = try await connection.send(.core(.fetchStatus)).expectedStatus()
        let apps = status.apps.filter { app in
            (app.assetPacks?.isEmpty == false) && (bundleIdentifier.map { $0 == app.bundleIdentifier } ?? groups.contains(app.appGroup))
        }
        for app in apps {
            let response = try await connection.send(.tool(.purgeAssetPacks(bundleIdentifier: app.bundleIdentifier, bytes: assetPackBytes)))
            guard case let .assetPackChanges(changes) = response else { continue }
            for removed in changes.removed {
                context.console.output("Removed the asset pack \(removed.split(separator: "/").last.map(String.init) ?? removed) of \(app.bundleIdentifier).")
            }
        }
    }

    /// The app group of an installed app, from the service's status.
    private static func appGroup(of bundleIdentifier: String, in context: ToolContext) async throws -> String {
        let connection = context.connection()
        defer { connection.disconnect() }
        guard case let .status(status) = try await connection.send(.core(.fetchStatus)),
            let app = status.apps.first(where: { $0.bundleIdentifier == bundleIdentifier })
        else {
            throw DebugToolError(
                "No app \(bundleIdentifier.debugDescription) is installed in \(context.paths.root.path); status lists the installed apps.")
        }
        return app.appGroup
    }

    /// Deletes everything in `caches` but the hand-over folder, and says how much went.
    static func empty(_ caches: URL) throws -> (files: Int, bytes: Int64) {
        let fileManager = FileManager.default
        guard let items = try? fileManager.contentsOfDirectory(at: caches, includingPropertiesForKeys: nil) else {
            return (0, 0)
        }
        var files = 0
        var bytes: Int64 = 0
        for item in items where item.lastPathComponent != handOverFolder {
            let (itemFiles, itemBytes) = measure(item)
            do {
                try fileManager.removeItem(at: item)
            } catch {
                throw DebugToolError("Could not delete \(item.path): \(DebugTool.clause(error)). Check its permissions.")
            }
            files += itemFiles
            bytes += itemBytes
        }
        return (files, bytes)
    }

    /// The regular files under `item` and their total size, without following symbolic links.
    private static func measure(_ item: URL) -> (files: Int, bytes: Int64) {
        var status = stat()
        guard lstat(item.path, &status) == 0 else { return (0, 0) }
        if (status.st_mode & S_IFMT) == S_IFREG { return (1, Int64(status.st_size)) }
        guard (status.st_mode & S_IFMT) == S_IFDIR,
              let children = try? FileManager.default.contentsOfDirectory(at: item, includingPropertiesForKeys: nil)
        else { return (0, 0) }
        return children.map(measure).reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
}
