/*
Abstract:
The rule every asset-pack identifier follows, because identifiers become folder and file names.
*/

import BackgroundAssetsIPC

/// Checks asset-pack identifiers.
///
/// A pack's identifier names its folder in the app group container and its file on the server
/// (Apple's convention: the download URL is the base URL plus the identifier), so it is limited to
/// what is safe as one path component: letters, digits, `.`, `-` and `_`, not starting with `.`,
/// at most 255 bytes.
public enum AssetPackIdentifier {
    /// Why `identifier` cannot be a pack's identifier, as a sentence, or `nil` when it can.
    public static func problem(with identifier: String) -> String? {
        if identifier.isEmpty { return "is empty; give the pack an identifier such as \"Tutorial\"." }
        guard DevicePaths.isSafePathComponent(identifier) else {
            return "\(identifier.debugSummary) is not a valid asset-pack identifier: use letters, digits, "
                + "\".\", \"-\" and \"_\" only, not starting with \".\", at most 255 bytes (for example \"Tutorial\")."
        }
        return nil
    }
}
