/*
Abstract:
Starts the framework's threads under names the kernel keeps, so `ps -L`, `top -H` and `perf` tell an app's threads apart.
*/

import Foundation

extension Thread {
    /// Starts a thread that names itself before it runs `body`.
    ///
    /// On Linux, a name set on a `Thread` before `start()` stays with Foundation: the thread runs
    /// under the name of the thread that started it, so the framework's reader, sender and delegate
    /// threads all showed as the app's own name. A thread that names itself from inside reaches the
    /// kernel, which refuses a name longer than 15 bytes outright: longer ones are cut to fit.
    /// - Parameters:
    ///   - name: The name, such as `ba-delegate`; at most its first 15 bytes are kept.
    ///   - body: The thread's work.
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let kept = kernelName(name)
        let thread = Thread {
            Thread.current.name = kept
            body()
        }
        thread.name = kept
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
}
