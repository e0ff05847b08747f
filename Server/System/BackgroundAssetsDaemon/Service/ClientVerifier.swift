/*
Abstract:
Decides whether a client is who its hello says, from the executable the kernel says the peer runs.
*/

import BackgroundAssetsIPC
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's identity on its file system: what a hard link shares with the file it links to.
///
/// Paths cannot tell whether two executables are the same program: an installed app's executable is
/// a hard link to the built one, in another folder and sometimes under another name, while a copy of
/// an app's code at the right path would be another file. The device and inode say it either way.
public struct ExecutableIdentity: Sendable, Hashable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode on that device.
    public var inode: UInt64

    /// Creates an identity from known values.
    /// - Parameters:
    ///   - device: The device number.
    ///   - inode: The inode number.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file at `path`, following links, or `nil` when it cannot be looked at.
    ///
    /// `stat` of `/proc/PID/exe` reaches the file the process was started from even when that file
    /// was renamed over or deleted since, so a rebuild does not change what a running process is.
    /// - Parameter path: A path, such as `/proc/PID/exe`.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}

/// The executable a connected process runs.
public struct PeerExecutable: Sendable, Equatable {
    /// The file's identity.
    public var identity: ExecutableIdentity
    /// Its path as `/proc/PID/exe` names it, for messages only (never compared).
    public var path: String

    /// Creates a description from known values.
    /// - Parameters:
    ///   - identity: The file's identity.
    ///   - path: The path for messages.
    public init(identity: ExecutableIdentity, path: String) {
        self.identity = identity
        self.path = path
    }

    /// The executable of a running process, from `/proc/PID/exe`, or `nil` when it cannot be read
    /// (the process ended, or the platform has no `/proc`).
    /// - Parameter processIdentifier: The process, as the kernel reported it for the socket's peer.
    public init?(processIdentifier: Int32) {
        guard processIdentifier > 0 else { return nil }
        let link = "/proc/\(processIdentifier)/exe"
        guard let identity = ExecutableIdentity(path: link) else { return nil }
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? link
        self.init(identity: identity, path: path)
    }
}

/// Checks a `hello` against what the connected process is.
///
/// A connection's app is the installed app (or extension) whose executable the peer runs; the tool
/// role belongs to `backgroundassets-debug`'s executable. A bundle identifier that no installed app
/// has (the debug tool's own downloads, an app under test that was never installed) may be claimed
/// by any process that is not an installed app or extension, so it never reaches an installed
/// app's data, and an installed app cannot pose as another one under a new name.
/// - Note: On Apple platforms the kernel knows every process's code signature and the system reads
///   the bundle identifier from it. Here the executable's file identity stands in for the signature.
public struct ClientVerifier: Sendable {
    /// The executables one installed app is known by.
    public struct InstalledExecutables: Sendable, Equatable {
        /// The app's bundle identifier.
        public var bundleIdentifier: String
        /// The app's executable in its bundle and the built one it came from.
        public var app: Set<ExecutableIdentity>
        /// The extension's executable in its bundle and the built one it came from.
        public var `extension`: Set<ExecutableIdentity>

        /// Creates the executables of an app from known identities.
        /// - Parameters:
        ///   - bundleIdentifier: The app's bundle identifier.
        ///   - app: The app's executables.
        ///   - extension: The extension's executables.
        public init(bundleIdentifier: String, app: Set<ExecutableIdentity>, extension: Set<ExecutableIdentity>) {
            self.bundleIdentifier = bundleIdentifier
            self.app = app
            self.extension = `extension`
        }

        /// The executables of an installed app as they are on disk now.
        ///
        /// The built executables count too: a person may start the app from its build folder, and
        /// until it moves into its bundle (or when that fails) it runs the built file, a rebuild
        /// of which the bundle's hard link catches up with only at the next launch.
        /// - Parameter installed: The app's record.
        public init(_ installed: InstalledApp) {
            func identities(_ urls: [URL?]) -> Set<ExecutableIdentity> {
                Set(urls.compactMap { $0.flatMap { ExecutableIdentity(path: $0.path) } })
            }
            self.init(
                bundleIdentifier: installed.bundleIdentifier,
                app: identities([installed.appExecutable, installed.builtAppExecutable]),
                extension: identities([installed.extensionExecutable, installed.builtExtensionExecutable]))
        }
    }

    /// Whether a hello may stand.
    public enum Verdict: Sendable, Equatable {
        /// The process is what it claims.
        case accepted
        /// It is not; the sentence names the claim and the executable.
        case refused(String)
    }

    /// The executable a process runs; injected so the decision is tested without processes.
    let executableOfProcess: @Sendable (Int32) -> PeerExecutable?
    /// The debug tool's executable, looked up at each check so a rebuilt tool is still the tool.
    let toolExecutable: @Sendable () -> ExecutableIdentity?

    /// Creates a verifier with its own look-ups.
    /// - Parameters:
    ///   - executableOfProcess: The executable a process runs, or `nil` when it cannot be told.
    ///   - toolExecutable: The debug tool's executable, or `nil` when there is none.
    public init(
        executableOfProcess: @escaping @Sendable (Int32) -> PeerExecutable?,
        toolExecutable: @escaping @Sendable () -> ExecutableIdentity?
    ) {
        self.executableOfProcess = executableOfProcess
        self.toolExecutable = toolExecutable
    }

    /// The verifier the service uses: `/proc/PID/exe` for peers, and the debug tool beside the
    /// service's own executable, where `swift build` puts every product.
    public static let live = ClientVerifier(
        executableOfProcess: { PeerExecutable(processIdentifier: $0) },
        toolExecutable: {
            guard let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
            let tool = URL(fileURLWithPath: own).deletingLastPathComponent().appending(path: "backgroundassets-debug")
            return ExecutableIdentity(path: tool.path)
        })

    /// Decides whether a hello may stand for the process on the other end.
    /// - Parameters:
    ///   - hello: What the client claims.
    ///   - processIdentifier: The peer's process, as the kernel reported it (not the hello's).
    ///   - installed: Every installed app's executables.
    /// - Returns: ``Verdict/accepted``, or a refusal naming the claim and the executable.
    public func verdict(
        for hello: Hello, processIdentifier: Int32, installed: [InstalledExecutables]
    ) -> Verdict {
        let claim = "\(hello.role.rawValue) of \(hello.bundleIdentifier.debugSummary)"
        guard let executable = executableOfProcess(processIdentifier) else {
            return .refused(
                "Process \(processIdentifier) says it is the \(claim), but its executable cannot be read from /proc/\(processIdentifier)/exe, so the service cannot tell what it is; a connection is accepted only from a process whose executable it can check.")
        }
        let isTool = toolExecutable() == executable.identity
        let runs = installed.flatMap { app in
            [
                app.app.contains(executable.identity) ? (app.bundleIdentifier, Hello.Role.app) : nil,
                app.extension.contains(executable.identity) ? (app.bundleIdentifier, Hello.Role.extension) : nil,
            ].compactMap { $0 }
        }
        let what = Self.describe(executable: executable, isTool: isTool, runs: runs)
        switch hello.role {
        case .tool:
            if isTool { return .accepted }
            return .refused(
                "Process \(processIdentifier) says it is the debug tool, but it runs \(what); only backgroundassets-debug, built beside backgroundassetsd, may act as the tool.")
        case .app, .extension:
            if runs.contains(where: { $0.0 == hello.bundleIdentifier && $0.1 == hello.role }) { return .accepted }
            let isInstalled = installed.contains { $0.bundleIdentifier == hello.bundleIdentifier }
            // An identifier no app has is nobody's to protect, unless an installed app claims it:
            // then it could be its own data under another name, or an app about to be installed.
            if !isInstalled, runs.isEmpty { return .accepted }
            let remedy =
                isInstalled
                ? "start the installed app (or let the service start its extension) instead of another program"
                : "an installed app or extension may only speak as itself"
            return .refused("Process \(processIdentifier) says it is the \(claim), but it runs \(what); \(remedy).")
        }
    }

    /// What an executable is, in words: its path and which installed app or tool it is.
    private static func describe(executable: PeerExecutable, isTool: Bool, runs: [(String, Hello.Role)]) -> String {
        if isTool { return "the debug tool \(executable.path)" }
        guard let first = runs.first else { return "\(executable.path), which is no installed app's executable" }
        return "\(executable.path), the executable of the \(first.1.rawValue) of \(first.0.debugSummary)"
    }
}
