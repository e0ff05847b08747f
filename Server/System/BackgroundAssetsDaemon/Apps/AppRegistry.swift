/*
Abstract:
The installed apps of a device root: one atomically written JSON record per app under apps/ID/.
*/

import BackgroundAssetsIPC
import Foundation

/// The registry of installed apps, `apps/ID/app.json` for each one.
///
/// An actor, so a read-modify-write through ``update(_:_:)`` never interleaves with another in this
/// process; the system service is the only process that writes the registry, and every write
/// replaces the record atomically, so other processes reading it never see half a record.
/// Records are pretty-printed JSON with ISO 8601 dates, to the second, so people can read them.
///
/// The registry publishes every change the schedules read (``InstalledApp/scheduledFields``): an
/// app saved or removed, or an update that moves its dates or state. So the periodic checks and the
/// task runner follow every writer of the registry, and no writer has to remember to wake them.
public actor AppRegistry {
    /// The device root's paths.
    public let paths: DevicePaths
    /// Told of each app whose record changed in a way the schedules read.
    private let scheduledFieldsChanged: @Sendable (String) -> Void

    /// The largest record read: a real one is a few kilobytes, so anything far larger is not one.
    static let maximumRecordSize = 1 << 20

    /// Records read, with the file each came from. A record changes only by a rename over it (a
    /// new file) or by deleting it, so a file that is still the same one still holds that record:
    /// the service asks for an app at every progress report of its install, and decoding its JSON
    /// each time cost more than the report. Its path is kept with it: building the path again from
    /// the identifier, for every download an app starts, cost more than the look at the file.
    private var read: [String: (path: String, file: FileIdentity, app: InstalledApp)] = [:]

    /// Creates the registry of a device root; nothing is read until asked.
    /// - Parameters:
    ///   - paths: The device root.
    ///   - scheduledFieldsChanged: Told, after the write, of each app whose record changed in a way
    ///     the schedules read; the service's, which reschedules. Readers pass nothing.
    public init(paths: DevicePaths, scheduledFieldsChanged: @escaping @Sendable (String) -> Void = { _ in }) {
        self.paths = paths
        self.scheduledFieldsChanged = scheduledFieldsChanged
    }

    /// Saves an app's record, creating its folder, replacing any previous record atomically.
    /// - Parameter app: The app to save.
    /// - Throws: ``AppRegistryError`` for an identifier that cannot be a folder or a failed write.
    public func save(_ app: InstalledApp) throws {
        try write(app)
        scheduledFieldsChanged(app.bundleIdentifier)
    }

    /// Replaces the record atomically; telling of the change is the caller's, which knows what changed.
    private func write(_ app: InstalledApp) throws {
        let file = try recordFile(app.bundleIdentifier)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(app)
        } catch {
            throw AppRegistryError.unwritable(path: file.path, reason: "it cannot be encoded (\(error))")
        }
        read[app.bundleIdentifier] = nil
        if let reason = AtomicFileWriter.write(data, to: file, followingFolderLink: false) {
            throw AppRegistryError.unwritable(path: file.path, reason: reason)
        }
    }

    /// The installed app with an identifier, or `nil` when none is installed.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    /// - Throws: ``AppRegistryError`` for a bad identifier or an unreadable record.
    public func app(_ bundleIdentifier: String) throws -> InstalledApp? {
        let known = read[bundleIdentifier]
        let path = try known?.path ?? recordFile(bundleIdentifier).path
        var status = stat()
        guard stat(path, &status) == 0 || errno != ENOENT else {
            read[bundleIdentifier] = nil
            return nil
        }
        let identity = FileIdentity(status)
        if let known, known.file == identity { return known.app }
        let app = try Self.decode(URL(fileURLWithPath: path, isDirectory: false), expecting: bundleIdentifier)
        read[bundleIdentifier] = (path, identity, app)
        return app
    }

    /// Every installed app, sorted by identifier, and the problems of the records that could not be read.
    ///
    /// One damaged record never hides the other apps: it is reported beside them.
    /// - Returns: The readable apps and one error for each unreadable record.
    public func apps() -> (apps: [InstalledApp], problems: [AppRegistryError]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.appsDirectory.path)) ?? []
        var apps: [InstalledApp] = []
        var problems: [AppRegistryError] = []
        for name in names.sorted() where DevicePaths.isSafePathComponent(name) {
            guard let file = paths.appRecordFile(forBundleIdentifier: name),
                FileManager.default.fileExists(atPath: file.path)
            else { continue }
            do {
                apps.append(try Self.decode(file, expecting: name))
            } catch let error as AppRegistryError {
                problems.append(error)
            } catch {
                problems.append(.unreadableRecord(path: file.path, reason: "\(error)"))
            }
        }
        return (apps, problems)
    }

    /// Reads an installed app's record, changes it, and saves it, all without another change interleaving.
    /// - Parameters:
    ///   - bundleIdentifier: The app's `CFBundleIdentifier`.
    ///   - body: The change; when it throws, or changes nothing, nothing is saved.
    /// - Returns: What `body` returns.
    /// - Throws: ``AppRegistryError/notInstalled(_:)``, other registry errors, or what `body` throws.
    public func update<T: Sendable>(
        _ bundleIdentifier: String, _ body: @Sendable (inout InstalledApp) throws -> T
    ) throws -> T {
        guard let stored = try app(bundleIdentifier) else { throw AppRegistryError.notInstalled(bundleIdentifier) }
        var app = stored
        let result = try body(&app)
        guard app.bundleIdentifier == bundleIdentifier else {
            throw AppRegistryError.unwritable(
                path: try recordFile(bundleIdentifier).path, reason: "an update cannot change the bundle identifier"
            )
        }
        // A record the change left as it was is not written again: after the first launch every
        // download still passes through here to be admitted, and rewriting and syncing the record for
        // each one cost more than the download itself.
        if app != stored {
            try write(app)
            if app.scheduledFields != stored.scheduledFields { scheduledFieldsChanged(bundleIdentifier) }
        }
        return result
    }

    /// Removes an installed app's folder and everything in it.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    /// - Returns: Whether the app was installed.
    /// - Throws: ``AppRegistryError`` for a bad identifier or a folder that cannot be removed.
    @discardableResult
    public func uninstall(_ bundleIdentifier: String) throws -> Bool {
        guard let folder = paths.appDirectory(forBundleIdentifier: bundleIdentifier) else {
            throw AppRegistryError.invalidBundleIdentifier(bundleIdentifier)
        }
        read[bundleIdentifier] = nil
        guard FileManager.default.fileExists(atPath: folder.path) else { return false }
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            throw AppRegistryError.unwritable(
                path: folder.path, reason: "it cannot be removed (\(error.localizedDescription))")
        }
        scheduledFieldsChanged(bundleIdentifier)
        return true
    }

    private func recordFile(_ bundleIdentifier: String) throws -> URL {
        guard let file = paths.appRecordFile(forBundleIdentifier: bundleIdentifier) else {
            throw AppRegistryError.invalidBundleIdentifier(bundleIdentifier)
        }
        return file
    }

    /// Decodes a record, checking it is small and belongs to the folder it was found in.
    private static func decode(_ file: URL, expecting bundleIdentifier: String) throws -> InstalledApp {
        let data: Data
        do {
            // stat(2), not attributesOfItem: that also reads /etc/passwd and /etc/group for the owner's
            // names, and the service reads a record whenever an app takes exclusive control.
            var status = stat()
            guard stat(file.path, &status) == 0 else {
                throw AppRegistryError.unreadableRecord(path: file.path, reason: errnoText(errno))
            }
            guard status.st_size <= maximumRecordSize else {
                throw AppRegistryError.unreadableRecord(path: file.path, reason: "it is larger than 1 MiB")
            }
            data = try Data(contentsOf: file)
        } catch let error as AppRegistryError {
            throw error
        } catch {
            throw AppRegistryError.unreadableRecord(path: file.path, reason: error.localizedDescription)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let app: InstalledApp
        do {
            app = try decoder.decode(InstalledApp.self, from: data)
        } catch {
            throw AppRegistryError.unreadableRecord(path: file.path, reason: "it is not a valid app record")
        }
        guard app.bundleIdentifier == bundleIdentifier else {
            throw AppRegistryError.unreadableRecord(
                path: file.path,
                reason: "it describes \(PropertyListText.quote(app.bundleIdentifier)), not the app its folder names"
            )
        }
        return app
    }
}
