/*
Abstract:
A test program that installs an asset pack and can stop mid-unpack, so a test can kill it there with SIGKILL.
*/

import AssetPackArchive
import AssetPackFormat
import Foundation

/// `asset-pack-unpack-probe ARCHIVE PACKS-FOLDER [--pause-after N]`: installs ARCHIVE into the packs
/// folder, printing `unpacked N` after each file; with `--pause-after N` it prints `paused` after the
/// Nth file and waits, mid-unpack, until it is killed.
@main
struct UnpackProbe {
    static func main() {
        let options = UnpackProbeOptions.parseOrExit()
        let unpacker = AssetPackUnpacker(layout: AssetPackContainerLayout(root: options.packsFolder))
        do {
            let installation = try unpacker.install(archive: options.archive) { progress in
                say("unpacked \(progress.filesDone)")
                if progress.filesDone == options.pauseAfter {
                    say("paused")
                    while true { pause() }
                }
            }
            say("installed \(installation.packID) version \(installation.version)")
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    /// Writes a line straight to the descriptor, so the test sees it before the process stops.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
