/*
Abstract:
Starts the threads of the service and the framework under names the kernel keeps, so `ps -L`, `top -H`, `perf` and crash markers tell them apart.
*/

import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Thread {
    /// Starts a thread that names itself before it runs `body`.
    ///
    /// On Linux, a name set on a `Thread` before `start()` stays with Foundation: the thread runs
    /// under the name of the thread that started it, so the service's queue, stores and connection
    /// loop showed as the shared pool's `oot.default-qos`, and an app's reader, sender and delegate
    /// threads as the app itself. Set from inside, Foundation passes it on only once the starting
    /// thread has recorded the new one, which on a busy machine comes after the new thread runs: so
    /// the thread tells the kernel itself, which refuses a name longer than 15 bytes outright.
    /// - Parameters:
    ///   - name: The name, such as `queue` or `ba-delegate`; at most its first 15 bytes are kept.
    ///   - stackSize: The stack's size in bytes, or `nil` for Foundation's default.
    ///   - body: The thread's work.
    package static func start(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let kept = kernelName(name)
        let thread = Thread {
            nameCurrentThread(kept)
            body()
        }
        thread.name = kept
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// `name` cut to the 15 bytes of UTF-8 a Linux thread's name may have, at a character's end.
    package static func kernelName(_ name: String) -> String {
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count <= 15 else { break }
            kept.append(character)
        }
        return kept
    }

    /// Names the calling thread where the kernel shows it, and where a crash marker reads it (the
    /// service renames a transfer's thread after its download while it runs).
    /// - Parameter name: The name; at most its first 15 bytes are kept.
    package static func nameCurrentThread(_ name: String) {
        let kept = kernelName(name)
        #if os(Linux)
        if let setName = setThreadName {
            _ = kept.withCString { setName(pthread_self(), $0) }
            return
        }
        #endif
        Thread.current.name = kept
    }

    #if os(Linux)
    /// Linux's `pthread_setname_np(3)`, which Glibc's Swift overlay does not export (it needs _GNU_SOURCE).
    private static let setThreadName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_setname_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()
    #endif
}
