/*
Abstract:
Finds the asset server the demo uses: one already listening on the port, or one it starts.
*/

import Foundation

/// The local asset server (the sample's CDN): reused when one already answers on the port.
enum AssetServerLauncher {
    /// Returns the server's base URL, starting `asset-server` when nothing listens on `port`.
    /// - Parameters:
    ///   - port: The port to use; 0 always starts a new server on a free port.
    ///   - catalog: The catalog folder of a started server, or `nil` for its default.
    ///   - processes: Where the demo's processes are started.
    ///   - https: Start a server with `--tls`, whose local CA the device must trust.
    ///   - tlsDirectory: Where that server keeps its CA, or `nil` for its default, `.tls`.
    /// - Returns: The base URL, whether the demo started the server, and the CA of an https server.
    static func prepare(port: Int, catalog: String?, https: Bool = false, tlsDirectory: String? = nil,
                        processes: DemoProcesses) throws -> (url: URL, started: Bool, caCertificate: String?) {
        if https, port != 0, manifestAnswer(port: port) != nil {
            throw DemoError("Port \(port) is in use; the https demo starts its own asset server. Stop it, or pass --port 0.")
        }
        if port != 0, let answer = manifestAnswer(port: port) {
            guard answer.hasPrefix("HTTP/1.1 200") else {
                throw DemoError("""
                    Port \(port) is in use, but what listens there does not serve /manifest.json \
                    (it answered \(answer.debugDescription)). Stop it, or run the demo with --port 0 for a free port.
                    """)
            }
            return (URL(string: "http://127.0.0.1:\(port)")!, false, nil)
        }
        let output = Pipe()
        let tls = https ? ["--tls"] + (tlsDirectory.map { ["--tls-dir", $0] } ?? []) : []
        try processes.start("asset-server", ["--port", String(port)] + (catalog.map { ["--catalog", $0] } ?? []) + tls,
                            output: output)
        // The server's first line on stdout is its address; read it byte by byte, unbuffered.
        let text = try readLine(output)
        guard let address = text.split(separator: " ").last, let url = URL(string: String(address)) else {
            throw DemoError("asset-server printed \(text.debugDescription) instead of its address.")
        }
        guard https else { return (url, true, nil) }
        let caLine = try readLine(output)
        let prefix = "asset-server CA certificate: "
        guard caLine.hasPrefix(prefix) else {
            throw DemoError("asset-server printed \(caLine.debugDescription) instead of its CA certificate's path.")
        }
        return (url, true, String(caLine.dropFirst(prefix.count)))
    }

    /// Reads a child's next line of standard output, unbuffered.
    /// - Throws: ``DemoError`` naming the child when it stops before the line ends.
    static func readLine(_ output: Pipe, of name: String = "asset-server") throws -> String {
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else {
                throw DemoError("\(name) stopped before it was listening; see its messages above.")
            }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// The status line something listening on the loopback port gives to `HEAD /manifest.json`,
    /// or `nil` when nothing accepts connections there.
    private static func manifestAnswer(port: Int) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        // Something listens: a server that never answers must not hang the demo.
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("HEAD /manifest.json HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        return String(text.split(separator: "\r\n", maxSplits: 1).first ?? "no answer")
    }
}
