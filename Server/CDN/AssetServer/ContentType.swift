/*
Abstract:
Media types for served files, chosen from the file name's extension.
*/

/// Maps file extensions to the media types clients expect.
enum ContentType {
    private static let byExtension: [String: String] = [
        "mp4": "video/mp4",
        "m4v": "video/x-m4v",
        "mov": "video/quicktime",
        "m4a": "audio/mp4",
        "mp3": "audio/mpeg",
        "aac": "audio/aac",
        "wav": "audio/wav",
        "flac": "audio/flac",
        "ogg": "audio/ogg",
        "csv": "text/csv; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "epub": "application/epub+zip",
        "ts": "video/mp2t",
        "m3u8": "application/vnd.apple.mpegurl",
        "json": "application/json",
        "plist": "application/x-plist",
        "txt": "text/plain; charset=utf-8",
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "heic": "image/heic",
        "gif": "image/gif",
        "webp": "image/webp",
        "zip": "application/zip",
        "pdf": "application/pdf",
    ]

    /// The media type for `path`, or `application/octet-stream` when the extension is unknown.
    static func forPath(_ path: String) -> String {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? path[...]
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else {
            return "application/octet-stream"
        }
        return byExtension[name[name.utf8.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
