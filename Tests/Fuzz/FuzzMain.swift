/*
Abstract:
The entry point: libFuzzer's driver on the chosen target when built by run-fuzzers.sh, a replay tool otherwise.
*/

import Foundation

#if FUZZING
/// libFuzzer's documented entry for a program that keeps its own `main` (SwiftPM names every
/// executable's `main` after its module, so libFuzzer's own `main` cannot be the one linked).
/// Its arguments are plain pointers and an Int32, which the Swift and C calling conventions pass alike.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The target libFuzzer drives. Set once in `main` before the driver starts and only read after,
/// by the driver's one thread, which is why it needs no lock.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's conventional entry, also what `runFuzzerDriver` is given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, let target = selectedTarget else { return 0 }
    target.run(Data(bytes: data, count: size))
    return 0
}
#endif

/// `Fuzz TARGET [libFuzzer options and corpus folders]` under the script;
/// `Fuzz TARGET FILE...` in a normal build, which feeds each file once (a crash's reproducer).
@main
struct FuzzMain {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, arguments[1] != "--help" else {
            print("usage: Fuzz TARGET FILE...   (Fuzz --list names the targets; Tests/Fuzz/run-fuzzers.sh fuzzes them)")
            exit(arguments.count >= 2 ? 0 : 64)
        }
        if arguments[1] == "--list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            exit(0)
        }
        guard let target = FuzzTarget.named(arguments[1]) else {
            FileHandle.standardError.write(Data("Fuzz: no target named \(arguments[1]); Fuzz --list names them.\n".utf8))
            exit(64)
        }
        defer { ScratchFile.removeAll() }
        #if FUZZING
        selectedTarget = target
        // libFuzzer ends the process itself when its time is up, so the scratch folder goes at exit.
        atexit { ScratchFile.removeAll() }
        // libFuzzer reads its own options and corpus folders: hand it everything after the target's name.
        var argc = CommandLine.argc - 1
        var argv = CommandLine.unsafeArgv + 1
        argv[0] = CommandLine.unsafeArgv[0]
        exit(runFuzzerDriver(&argc, &argv) { data, size in fuzz(data, size) })
        #else
        for path in arguments.dropFirst(2) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("Fuzz: cannot read \(path).\n".utf8))
                exit(66)
            }
            target.run(data)
            print("\(target.name): \(path) (\(data.count) bytes) ran without a trap")
        }
        #endif
    }
}
