/*
Abstract:
What an asset server serves and how: address, catalog folder, limits, timeouts, faults and access log.
*/

import Foundation

extension AssetServer {
    /// Everything an ``AssetServer`` needs to know before it starts.
    public struct Configuration: Sendable, Equatable {
        /// The address to listen on: an IPv4 or IPv6 literal, or a host name such as `localhost`.
        public var host: String
        /// The TCP port to listen on; `0` asks the system for a free port, which ``AssetServer/start()`` returns.
        public var port: Int
        /// The catalog folder; only regular files inside it are ever served.
        public var catalogDirectory: URL
        /// Size limits that protect the server from oversized requests.
        public var limits: Limits
        /// Deadlines that protect the server from slow or silent clients.
        public var timeouts: Timeouts
        /// Deliberate misbehaviour for demos and tests; ``Faults/none`` serves faithfully.
        public var faults: Faults
        /// Where to append one JSON line per response, or `nil` for no access log.
        public var accessLogURL: URL?
        /// The certificate and key to serve https with, or `nil` for plain http.
        public var tls: TLSFiles?

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The address to listen on.
        ///   - port: The TCP port, or `0` for any free port.
        ///   - catalogDirectory: The folder whose files are served.
        ///   - limits: Request size limits.
        ///   - timeouts: Client deadlines.
        ///   - faults: Fault knobs; none by default.
        ///   - accessLogURL: The access log file, or `nil`.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            catalogDirectory: URL = URL(fileURLWithPath: ".catalog", isDirectory: true),
            limits: Limits = Limits(),
            timeouts: Timeouts = Timeouts(),
            faults: Faults = .none,
            accessLogURL: URL? = nil
        ) {
            self.host = host
            self.port = port
            self.catalogDirectory = catalogDirectory
            self.limits = limits
            self.timeouts = timeouts
            self.faults = faults
            self.accessLogURL = accessLogURL
        }
    }

    /// Size limits on requests and connections.
    public struct Limits: Sendable, Equatable {
        /// The longest request line accepted; longer lines get `414 URI Too Long`.
        public var maximumRequestLineLength: Int
        /// The most bytes of header fields accepted; more get `431 Request Header Fields Too Large`.
        public var maximumHeaderBytes: Int
        /// The most header fields accepted; more get `431 Request Header Fields Too Large`.
        public var maximumHeaderCount: Int
        /// The largest request body (on a GET) read and discarded; larger ones get `413` and a close.
        public var maximumDiscardedBodyBytes: Int
        /// The most connections served at once; further connections are closed at once.
        public var maximumConnections: Int
        /// The largest upload accepted into the uploads folder; larger ones get `413` before a byte is read.
        public var maximumUploadBytes: Int64

        /// Creates limits; the defaults match common production servers.
        public init(
            maximumRequestLineLength: Int = 8 * 1024,
            maximumHeaderBytes: Int = 32 * 1024,
            maximumHeaderCount: Int = 100,
            maximumDiscardedBodyBytes: Int = 64 * 1024,
            maximumConnections: Int = 2048,
            maximumUploadBytes: Int64 = 64 * 1024 * 1024
        ) {
            self.maximumRequestLineLength = maximumRequestLineLength
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumHeaderCount = maximumHeaderCount
            self.maximumDiscardedBodyBytes = maximumDiscardedBodyBytes
            self.maximumConnections = maximumConnections
            self.maximumUploadBytes = maximumUploadBytes
        }
    }

    /// Deadlines applied to every connection.
    public struct Timeouts: Sendable, Equatable {
        /// How long a kept-alive connection may wait for the first byte of its next request.
        public var idle: Duration
        /// How long a client has, from the first byte, to send the whole request head.
        ///
        /// This is a deadline, not a per-read timeout: a client that sends one byte a second is still dropped.
        public var requestHead: Duration
        /// How long a send may make no progress before the client is considered gone.
        public var sendStall: Duration
        /// How long ``AssetServer/shutdown(gracePeriod:)`` lets in-flight responses finish by default.
        public var shutdownGracePeriod: Duration

        /// Creates timeouts.
        public init(
            idle: Duration = .seconds(15),
            requestHead: Duration = .seconds(10),
            sendStall: Duration = .seconds(30),
            shutdownGracePeriod: Duration = .seconds(3)
        ) {
            self.idle = idle
            self.requestHead = requestHead
            self.sendStall = sendStall
            self.shutdownGracePeriod = shutdownGracePeriod
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the bounds of `UInt64`.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
