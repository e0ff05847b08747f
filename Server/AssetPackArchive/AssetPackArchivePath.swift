/*
Abstract:
The rule for paths inside an asset pack: relative, normalised, and never leaving the pack's folder.
*/

/// Checks the paths an archive lists, before any of them becomes a file name.
///
/// A path is `/`-separated components under the pack's root: not absolute, no empty component,
/// no `.` or `..`, no NUL or control characters, at most 255 bytes a component and 1024 bytes in
/// all. Such a path cannot name anything outside the folder it is unpacked into.
public enum AssetPackArchivePath {
    /// The longest path accepted, in UTF-8 bytes.
    public static let maximumLength = 1024

    /// Why `path` cannot name a file in a pack, as a sentence, or `nil` when it can.
    public static func problem(with path: String) -> String? {
        if path.isEmpty { return "is an empty path." }
        if path.utf8.count > maximumLength {
            return "is longer than \(maximumLength) bytes; shorten the file's path."
        }
        if path.hasPrefix("/") {
            return "\(path.debugDescription) is absolute; paths in a pack are relative to the pack's root."
        }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(path.debugDescription) contains a control character; rename the file."
        }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case "":
                return "\(path.debugDescription) has an empty component (a doubled or trailing \"/\")."
            case ".", "..":
                return "\(path.debugDescription) contains \"\(component)\", which would leave or re-enter a folder; "
                    + "a pack's paths must stay inside the pack."
            default:
                if component.utf8.count > 255 {
                    return "\(path.debugDescription) has a component longer than 255 bytes; rename it."
                }
            }
        }
        return nil
    }
}
