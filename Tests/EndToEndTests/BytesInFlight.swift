/*
Abstract:
The bytes a process's TCP connections still hold in the kernel, read from /proc/net/tcp: what a kill would lose.
*/

import Foundation

/// The bytes queued in the kernel on both ends of a process's TCP connections.
///
/// A test that holds an asset server still and then kills the service reading from it loses
/// whatever the server had sent and the service had not read yet. On a busy machine the service
/// may not run for a second, and a second of sending is far more than the bytes a kill should cost;
/// waiting for these queues to empty first makes the loss the same on any machine.
enum BytesInFlight {
    /// The bytes the connections of `pid` have sent that no reader took yet (their peers' receive
    /// queues) plus those still in their own send queues.
    /// - Parameter pid: The process whose connections to look at (the asset server).
    /// - Returns: The bytes, or nil when the process's sockets cannot be read.
    static func unread(sentBy pid: pid_t) -> Int? {
        guard let inodes = socketInodes(of: pid) else { return nil }
        let sockets = tcpSockets()
        let own = sockets.filter { inodes.contains($0.inode) }
        // The peer of a connection is the socket whose local end is this one's remote end.
        let peers = Set(own.map(\.remote))
        let peerQueues = sockets.filter { peers.contains($0.local) && !inodes.contains($0.inode) }.map(\.receiveQueue)
        return own.map(\.sendQueue).reduce(0, +) + peerQueues.reduce(0, +)
    }

    private struct Socket {
        var local: String
        var remote: String
        var sendQueue: Int
        var receiveQueue: Int
        var inode: String
    }

    /// Every TCP socket of the machine, IPv4 and IPv6.
    private static func tcpSockets() -> [Socket] {
        ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path -> [Socket] in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").dropFirst().compactMap { line in
                // sl local rem st tx_queue:rx_queue tr:when retrnsmt uid timeout inode ...
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9 else { return nil }
                let queues = fields[4].split(separator: ":")
                guard queues.count == 2, let send = Int(queues[0], radix: 16), let receive = Int(queues[1], radix: 16) else {
                    return nil
                }
                return Socket(local: String(fields[1]), remote: String(fields[2]), sendQueue: send, receiveQueue: receive,
                              inode: String(fields[9]))
            }
        }
    }

    /// The inodes of the sockets `pid` has open, from the links in its `fd` folder (`socket:[1234]`).
    private static func socketInodes(of pid: pid_t) -> Set<String>? {
        let folder = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return Set(names.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
    }
}
