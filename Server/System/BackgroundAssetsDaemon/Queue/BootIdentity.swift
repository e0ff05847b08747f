/*
Abstract:
Which boot of the machine this is: bytes written but not synced are trusted only within the boot that wrote them.
*/

import BackgroundAssetsIPC
import Foundation

/// The identity of the machine's current boot.
///
/// A crash of the service loses nothing the kernel already accepted, but a crash of the machine
/// loses every byte that was not synced. The queue records which boot wrote each staging file,
/// and trusts the file's length only when the boot is still the same.
enum BootIdentity {
    /// The current boot: `BA_BOOT_ID` when set (tests simulate a reboot with it), else the
    /// kernel's `/proc/sys/kernel/random/boot_id`, else a value unique to this process, which
    /// trusts only what was synced.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override = environment["BA_BOOT_ID"], !override.isEmpty { return override }
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return "process-\(getpid())-\(UUID.random().uuidString)"
    }
}
