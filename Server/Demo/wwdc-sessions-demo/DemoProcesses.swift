/*
Abstract:
The processes the demo starts: launched beside it, waited for, and all stopped when the demo stops.
*/

import Foundation
import Synchronization

/// Starts the package's executables (found beside the demo, where `swift build` puts every product)
/// and remembers them, so Ctrl-C or the end of the demo stops every one it started.
final class DemoProcesses: Sendable {
    private let folder: URL
    private let environment: [String: String]
    private let started = Mutex<[Process]>([])
    /// The names of the processes ``stopAll()`` stopped so far, taken while `started` is held.
    private let stoppedNames = Mutex<[String]>([])
    /// The port the demo's asset server listens on, once it does: what a hint to start it again names.
    let assetServerPort = Atomic<Int>(0)

    /// - Parameters:
    ///   - folder: The build products folder.
    ///   - environment: The environment every process gets.
    init(folder: URL, environment: [String: String]) {
        self.folder = folder
        self.environment = environment
    }

    /// Starts an executable; its output goes to the demo's own unless `output` is given.
    /// - Throws: ``DemoError`` when the executable is missing or cannot start.
    @discardableResult
    func start(_ name: String, _ arguments: [String], output: Pipe? = nil) throws -> Process {
        let executable = folder.appending(path: name, directoryHint: .notDirectory)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw DemoError("\(executable.path) is missing. Build every product first: swift build && swift run wwdc-sessions-demo")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let output { process.standardOutput = output }
        do {
            try process.run()
        } catch {
            throw DemoError("\(name) could not be started: \(error.localizedDescription)")
        }
        started.withLock { $0.append(process) }
        return process
    }

    /// Runs an executable to the end.
    /// - Returns: Its exit status, or the signal that ended it.
    @discardableResult
    func run(_ name: String, _ arguments: [String]) async throws -> ChildExit {
        let process = try start(name, arguments)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        started.withLock { $0.removeAll { $0 === process } }
        return ChildExit(status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal)
    }

    /// Stops one process it started (SIGTERM, then SIGKILL after two seconds), and forgets it.
    func stop(_ process: Process) {
        started.withLock { $0.removeAll { $0 === process } }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date.now.addingTimeInterval(2)
        while process.isRunning, Date.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Stops every process still running (SIGTERM, then SIGKILL after two seconds).
    /// - Returns: The names of every process the demo had running when it was first asked to stop,
    ///   including those that ended of the same Ctrl-C a moment before; the same list on every call,
    ///   whichever of the demo's threads stops them first.
    @discardableResult
    func stopAll() -> [String] {
        let (processes, names) = started.withLock { processes in
            defer { processes.removeAll() }
            let names = processes.compactMap { $0.executableURL?.lastPathComponent }
            stoppedNames.withLock { $0 += names }
            return (processes, stoppedNames.withLock { $0 })
        }
        let running = processes.filter(\.isRunning)
        for process in running { process.terminate() }
        let deadline = Date.now.addingTimeInterval(2)
        for process in running {
            while process.isRunning, Date.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        return names
    }
}

/// How a process the demo ran ended.
struct ChildExit {
    /// The exit status, or the signal's number when ``bySignal``.
    var status: Int32
    var bySignal: Bool

    /// Whether it ended of Ctrl-C or SIGTERM, killed by it or exiting as interrupted (130, 143).
    var isInterruption: Bool {
        bySignal ? [SIGINT, SIGTERM].contains(status) : [130, 143].contains(status)
    }
}

/// A demo step that failed, with what to do about it.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    /// Whether the step failed because its process was interrupted, which a Ctrl-C does to the
    /// demo's children as well as to the demo.
    var isInterruption = false

    init(_ description: String, isInterruption: Bool = false) {
        self.description = description
        self.isInterruption = isInterruption
    }
}
