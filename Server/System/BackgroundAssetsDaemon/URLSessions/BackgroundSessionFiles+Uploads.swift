/*
Abstract:
The copies of the files upload tasks send: made when the task is, from a file the app may read, kept in staging until the upload ends.
*/

import BackgroundAssetsIPC
import Foundation

/// Why a file cannot be copied for an upload.
struct UploadBodyError: Error, Sendable {
    /// What went wrong, in words.
    let reason: String
}

extension BackgroundSessionFiles {
    /// The folder of an app's upload copies, in staging, where no app looks.
    func uploadBodiesDirectory(for app: String) -> URL? {
        guard DevicePaths.isSafePathComponent(app) else { return nil }
        return paths.stagingDirectory.appending(path: "url-session-uploads", directoryHint: .isDirectory)
            .appending(path: app, directoryHint: .isDirectory)
    }

    /// Whether an app may not upload `file`: it lies under the device root outside the app's own
    /// folder and the containers of its app groups (the service's store, another app's files).
    func isRefusedUploadSource(_ file: URL, app: String, appGroups: [String]) -> Bool {
        let resolved = Self.resolved(file.path)
        let root = Self.resolved(paths.root.path)
        guard resolved == root || resolved.hasPrefix(root + "/") else { return false }
        let allowed = ([paths.appDirectory(forBundleIdentifier: app)] + appGroups.map { paths.container(forAppGroup: $0) })
            .compactMap { $0.map { Self.resolved($0.path) } }
        return !allowed.contains { resolved.hasPrefix($0 + "/") }
    }

    /// Copies the file an upload sends into staging, reading it through no final link, and only if
    /// it is a regular file.
    /// - Returns: The copy.
    /// - Throws: ``UploadBodyError`` saying why the file cannot be read or copied.
    /// - Parameter appGroups: The app's groups, whose containers it may upload from.
    func stageUploadBody(copying source: URL, for app: String, appGroups: [String]) throws(UploadBodyError) -> URL {
        guard let folder = uploadBodiesDirectory(for: app) else { throw UploadBodyError(reason: "the app's identifier is not usable") }
        let input = open(source.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw UploadBodyError(reason: errnoText(errno)) }
        defer { close(input) }
        // Judged where the opened file is, as the kernel reached it: no link or `..` on the way
        // can make a file of the service's look like one of the app's.
        guard let opened = Self.path(ofDescriptor: input),
              !isRefusedUploadSource(URL(fileURLWithPath: opened), app: app, appGroups: appGroups) else {
            throw UploadBodyError(reason: "it is inside the device root but not in the app's own folder or one of its app "
                + "groups' containers; upload a file the app owns")
        }
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw UploadBodyError(reason: "it is not a regular file")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw UploadBodyError(reason: "the system's folder for upload copies cannot be made: \(error.localizedDescription)")
        }
        let copy = folder.appending(path: "\(UUID.random().uuidString).body", directoryHint: .notDirectory)
        let output = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw UploadBodyError(reason: "the copy cannot be made: \(errnoText(errno))") }
        var complete = false
        defer {
            close(output)
            if !complete { unlink(copy.path) }
        }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw UploadBodyError(reason: errnoText(errno)) }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress.map { $0 + written }, count - written) }
                guard result > 0 else { throw UploadBodyError(reason: "the copy cannot be written: \(errnoText(errno))") }
                written += result
            }
        }
        // The task survives a restart of the service; so must the file it sends.
        guard fsync(output) == 0 else { throw UploadBodyError(reason: "the copy cannot be synced: \(errnoText(errno))") }
        complete = true
        return copy
    }

    /// Deletes an upload's copy, if it is one of this app's.
    func removeUploadBody(_ copy: URL, for app: String) {
        guard let folder = uploadBodiesDirectory(for: app), copy.deletingLastPathComponent().path == folder.path,
              DevicePaths.isSafePathComponent(copy.lastPathComponent) else { return }
        unlink(copy.path)
    }

    /// The apps that have a folder of upload copies.
    func appsWithUploadBodies() -> [String] {
        let root = paths.stagingDirectory.appending(path: "url-session-uploads", directoryHint: .isDirectory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter(DevicePaths.isSafePathComponent).sorted()
    }

    /// Deletes the app's upload copies that no task names any more.
    /// - Parameter referenced: The copies the app's tasks still send.
    /// - Returns: How many were removed.
    @discardableResult
    func removeUnreferencedUploadBodies(for app: String, keeping referenced: Set<String>) -> Int {
        guard let folder = uploadBodiesDirectory(for: app),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        let unused = names.map { folder.appending(path: $0, directoryHint: .notDirectory) }.filter { !referenced.contains($0.path) }
        for copy in unused { unlink(copy.path) }
        return unused.count
    }

    /// Where an open file is, from `/proc/self/fd`.
    private static func path(ofDescriptor descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A path with its links and `..` resolved as far as it exists.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let parent = url.deletingLastPathComponent().path
            return parent == path ? path : resolved(parent) + "/" + url.lastPathComponent
        }
        defer { free(real) }
        return String(cString: real)
    }
}
