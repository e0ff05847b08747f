/*
Abstract:
The asset server: a small HTTP/1.1 file server for a catalog folder, started and stopped in-process.
*/

import BackgroundAssetsIPC
import DevicePlatform
import Dispatch
import Foundation
import ServerRuntime
import TLS
import Synchronization
import SystemLogging

/// Serves the files of a catalog folder over HTTP/1.1: the stand-in CDN the sample downloads from.
///
/// Each connection runs on its own thread with every wait bounded by a deadline, so a slow client only ever
/// delays itself. Large bodies go straight from the file to the socket with `sendfile(2)` unless a fault knob
/// needs to see the bytes.
///
/// ```swift
/// let server = AssetServer(configuration: .init(port: 0, catalogDirectory: catalog), clock: SystemDeadlineClock())
/// let port = try server.start()
/// defer { server.shutdown() }
/// ```
public final class AssetServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    /// The clock the connections' deadlines run on.
    private let clock: any DeadlineClock

    private struct Running: Sendable {
        let context: ServingContext
        let listener: Listener
        let wakeWriteDescriptor: Int32
        let acceptLoopFinished: DispatchSemaphore
    }

    private enum Phase: Sendable {
        case created
        case running(Running)
        case stopped
    }

    private let phase = Mutex(Phase.created)
    private let logger = Logger(subsystem: "com.example.asset-server", category: "server", writesToDeviceLog: false)

    /// Creates a server; nothing happens until ``start()``.
    /// - Parameters:
    ///   - configuration: The address, catalog, limits, timeouts and faults to use.
    ///   - clock: The monotonic time the idle, request-head and send-stall deadlines run on: the
    ///     machine's (``SystemDeadlineClock``), which the executable passes, or one a test advances by hand.
    public init(configuration: Configuration, clock: any DeadlineClock) {
        self.configuration = configuration
        self.clock = clock
    }

    /// The bound port while the server runs, or `nil` before ``start()`` and after ``shutdown(gracePeriod:)``.
    public var port: Int? {
        phase.withLock { phase in
            if case .running(let running) = phase { return running.listener.port }
            return nil
        }
    }

    /// Binds the socket and starts accepting connections on a background thread.
    /// - Returns: The bound port, which is a free port chosen by the system when the configuration asks for 0.
    /// - Throws: ``AssetServerError`` when the catalog folder, the access log or the address cannot be used,
    ///   or when the server was already started.
    public func start() throws -> Int {
        try phase.withLock { phase in
            guard case .created = phase else { throw AssetServerError.alreadyStarted }
            // A client that disconnects mid-response must surface as EPIPE, not kill the process.
            signal(SIGPIPE, SIG_IGN)
            let resolver = try CatalogFileResolver(root: configuration.catalogDirectory)
            var tls: TLSServerContext?
            if let files = configuration.tls {
                do {
                    tls = try TLSServerContext(certificateChain: files.certificateChain, privateKey: files.privateKey)
                } catch {
                    throw AssetServerError.tls((error as? TLSError)?.message ?? "\(error)")
                }
            }
            let accessLog = try configuration.accessLogURL.map(AccessLog.init(url:))
            var pipeEnds: [Int32] = [-1, -1]
            guard pipe(&pipeEnds) == 0 else {
                accessLog?.close()
                throw AssetServerError.cannotListen(host: configuration.host, port: configuration.port,
                                                    reason: errnoText())
            }
            for end in pipeEnds {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            let listener: Listener
            do {
                listener = try Listener(host: configuration.host, port: configuration.port)
            } catch {
                accessLog?.close()
                close(pipeEnds[0])
                close(pipeEnds[1])
                throw error
            }
            let context = ServingContext(configuration: configuration, resolver: resolver, accessLog: accessLog,
                                         logger: logger, shutdownDescriptor: pipeEnds[0], tls: tls, clock: clock)
            let running = Running(context: context, listener: listener, wakeWriteDescriptor: pipeEnds[1],
                                  acceptLoopFinished: DispatchSemaphore(value: 0))
            guard DetachedThread.start({ Self.acceptConnections(running) }) else {
                accessLog?.close()
                close(listener.descriptor)
                close(pipeEnds[0])
                close(pipeEnds[1])
                throw AssetServerError.cannotListen(host: configuration.host, port: listener.port,
                                                    reason: "no thread could be started to accept connections")
            }
            phase = .running(running)
            logger.info("Serving \(resolver.rootPath) on \(configuration.host):\(listener.port).")
            return listener.port
        }
    }

    /// Stops accepting, lets in-flight responses finish for up to `gracePeriod`, then cuts off the rest.
    ///
    /// Idle keep-alive connections close at once. Returns when every connection is closed (or, if a thread is
    /// stuck, one second after the grace period). Calling it again, or before ``start()``, does nothing.
    /// - Parameter gracePeriod: How long in-flight responses may take; the configuration's value by default.
    public func shutdown(gracePeriod: Duration? = nil) {
        let running: Running? = phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            phase = .stopped
            return running
        }
        guard let running else { return }
        let context = running.context
        context.beginStopping()
        var byte: UInt8 = 1
        _ = write(running.wakeWriteDescriptor, &byte, 1)
        running.acceptLoopFinished.wait()
        let grace = (gracePeriod ?? configuration.timeouts.shutdownGracePeriod).nanoseconds
        var drained = context.registry.waitUntilEmpty(timeout: grace)
        if !drained {
            logger.notice("Cutting off \(context.registry.count) connection(s) still open after the grace period.")
            context.forceStop()
            context.registry.forceClose()
            drained = context.registry.waitUntilEmpty(timeout: 1_000_000_000)
        }
        context.accessLog?.close()
        close(running.wakeWriteDescriptor)
        // A thread that is somehow still running may poll the read end; leaking it is safer than reusing it.
        if drained { close(context.shutdownDescriptor) }
        logger.info("Stopped serving on port \(running.listener.port).")
    }

    private static func acceptConnections(_ running: Running) {
        let context = running.context
        let limit = context.configuration.limits.maximumConnections
        var descriptors = [
            pollfd(fd: running.listener.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: context.shutdownDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !context.isStopping {
            guard poll(&descriptors, 2, -1) > 0 else { continue }
            if descriptors[1].revents != 0 { break }
            while let client = running.listener.accept() {
                guard context.registry.insert(client, limit: limit) else {
                    close(client)
                    continue
                }
                let started = DetachedThread.start { Connection(descriptor: client, context: context).run() }
                if !started {
                    context.logger.error("Could not start a thread for a new connection; closing it.")
                    context.registry.remove(andClose: client)
                }
            }
            if errno == EMFILE || errno == ENFILE {
                // Out of descriptors: back off briefly rather than spin on a listener that stays readable.
                context.logger.error("Cannot accept connections: \(errnoText()); retrying shortly.")
                MonotonicClock.sleep(nanoseconds: 100_000_000) { context.isStopping }
            }
        }
        close(running.listener.descriptor)
        running.acceptLoopFinished.signal()
    }
}
