/*
Abstract:
Finds the large files left under a folder, for tests that check a download left nothing behind.
*/

import Foundation

/// The regular files under `folder`, at any depth, whose length is at least `bytes`, by path.
public func largeFiles(under folder: URL, atLeast bytes: Int) -> [String] {
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
    return (files?.allObjects as? [URL] ?? []).filter { file in
        let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
        return values?.isRegularFile == true && (values?.fileSize ?? 0) >= bytes
    }.map(\.path).sorted()
}
