/*
Abstract:
What a download that makes no progress waits for, in one sentence a waiting command prints.
*/

import BackgroundAssetsIPC
import Foundation

/// Tells a person that a command waits for a server, and why: the service's last error for the download.
///
/// A command that follows a download (`download`, `install --wait`) would otherwise sit silent while
/// the service retries an unreachable server, which looks like a hang.
enum ServerWait {
    /// How long a followed download may go without progress before the command says what it waits for.
    static let quietPeriod: Duration = .seconds(2)

    /// The server a download waits for and its last error, or `nil` when it waits for nothing the
    /// person can act on (its turn in the queue, say).
    /// - Parameter row: The download as `status` reports it.
    /// - Returns: A sentence such as `Waiting for the server 127.0.0.1:8080 to answer: …`, without advice.
    static func reason(of row: DownloadStatus) -> String? {
        guard row.download.state == .waiting || row.download.state == .downloading, let error = row.lastError else {
            return nil
        }
        let message = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
        return "Waiting for the server \(server(of: row.download.url)) to answer (\(message))."
    }

    /// `host:port` of a URL, or the URL itself when it has no host.
    static func server(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return url }
        let port = components.port ?? (components.scheme == "https" ? 443 : 80)
        return "\(host):\(port)"
    }
}
