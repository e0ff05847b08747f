/*
Abstract:
Keeps an installed bundle's executable the same file as the built one it was installed from.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable inside an installed app bundle, linked to the built product it came from.
///
/// Install hard-links each built executable into the app's bundle. A rebuild writes a new file in
/// the build folder, which leaves the bundle's link on the old one; so before the app or the
/// extension is started through its bundle, the link is pointed at the current build again, and
/// rebuilding is enough to run new code, as it is when Xcode installs an app on each run.
public enum InstalledExecutable {
    /// Points `installed` at the file `built` names, unless it already is that file.
    /// - Parameters:
    ///   - installed: The executable inside the installed bundle.
    ///   - built: The built executable it was installed from.
    /// - Throws: An error naming the file that could not be replaced; the old executable stays.
    public static func refresh(_ installed: URL, from built: URL) throws {
        var builtStatus = stat()
        guard stat(built.path, &builtStatus) == 0 else { return }
        var installedStatus = stat()
        if stat(installed.path, &installedStatus) == 0, installedStatus.st_dev == builtStatus.st_dev,
            installedStatus.st_ino == builtStatus.st_ino
        {
            return
        }
        try place(built, at: installed)
    }

    /// Hard-links an executable into place, or copies it when the two are on different file systems,
    /// replacing what was there in one rename.
    ///
    /// A hard link rather than a symbolic one: Foundation resolves the running executable's path
    /// through `/proc/self/exe`, which follows symbolic links back to the build folder.
    /// - Parameters:
    ///   - executable: The built executable.
    ///   - destination: Where it goes inside the bundle.
    public static func place(_ executable: URL, at destination: URL) throws {
        let staging = destination.deletingLastPathComponent().appending(
            path: ".\(destination.lastPathComponent).\(getpid()).new", directoryHint: .notDirectory)
        unlink(staging.path)
        if link(executable.path, staging.path) != 0 {
            do {
                try FileManager.default.copyItem(at: executable, to: staging)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: staging.path)
            } catch {
                // A copy cut short (a full disk) leaves part of an executable: it must not stay in the bundle.
                unlink(staging.path)
                throw error
            }
        }
        guard rename(staging.path, destination.path) == 0 else {
            let reason = errnoText()
            unlink(staging.path)
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: destination.path, NSLocalizedDescriptionKey: "\(destination.path): \(reason)"])
        }
    }
}
