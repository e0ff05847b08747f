/*
Abstract:
Starts the service's own threads under names the kernel knows, so `ps -L`, `top -H`, `perf` and crash markers show them.
*/

import Foundation

extension Thread {
    /// Starts a thread that names itself before it runs `body`.
    ///
    /// On Linux, Foundation keeps a `name` set before `start()` to itself: the thread runs under
    /// the name of the thread that started it, so the queue, the stores and the connection loop all
    /// showed as the shared pool's `oot.default-qos`.
    /// - Parameters:
    ///   - name: The name; the kernel keeps its first 15 bytes.
    ///   - stackSize: The stack's size in bytes, or `nil` for Foundation's default.
    ///   - body: The thread's work.
    static func start(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            CrashReport.nameCurrentThread(name)
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
