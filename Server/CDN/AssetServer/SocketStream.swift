/*
Abstract:
Deadline-aware reads, writes and sendfile on a non-blocking socket, built on poll(2), in the clear or inside TLS.
*/

import Foundation
import ServerRuntime
import TLS

/// One client socket, in non-blocking mode, with every wait bounded by `poll(2)`.
struct SocketStream {
    /// Why a socket operation stopped early.
    enum Failure: Error, Equatable {
        /// The deadline passed (reads) or no progress was possible for the stall timeout (writes).
        case timedOut
        /// The peer closed or reset the connection.
        case closed
        /// The server is shutting down and the wait was one that shutdown interrupts.
        case shuttingDown
    }

    let descriptor: Int32
    /// The read end of the server's shutdown pipe: readable once the server stops.
    let shutdownDescriptor: Int32
    /// The clock every deadline is set on and waited for with.
    let clock: any DeadlineClock
    /// The TLS layer of an https connection; every read and write then goes through it.
    var tls: TLSStream?

    /// How many file bytes are encrypted per TLS write: large enough to amortise the call, small
    /// enough to stay in the CPU's cache between the read and the encryption.
    static let tlsFileChunk = 256 * 1024

    /// Reads what is available into `buffer`, waiting until `deadline` (on ``clock``) for data.
    /// - Parameters:
    ///   - interruptible: Whether a server shutdown ends the wait (true between requests).
    ///   - waitsFirst: Whether to wait for data before trying to read, when nothing is likely to be there yet.
    /// - Returns: The number of bytes read, at least 1.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: UInt64, interruptible: Bool,
                 waitsFirst: Bool = false) throws(Failure) -> Int {
        // Bytes already inside the TLS layer are invisible to poll: read those at once.
        if waitsFirst, !(tls?.hasBufferedBytes ?? false) {
            try wait(for: Int16(POLLIN), deadline: deadline, interruptible: interruptible)
        }
        if let tls { return try receiveTLS(tls, into: buffer, deadline: deadline, interruptible: interruptible) }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return count }
            if count == 0 { throw .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN), deadline: deadline, interruptible: interruptible)
            default: throw .closed
            }
        }
    }

    /// Sends all of `bytes`, adding what was sent to `sent` as it goes so a failure still reports progress.
    /// - Parameter more: Tells the kernel more data follows at once (the body after a head), saving a packet.
    func send(_ bytes: UnsafeRawBufferPointer, stallTimeout: UInt64, more: Bool = false,
              sent: inout Int64) throws(Failure) {
        if let tls {
            do {
                try tls.write(bytes, timeoutMilliseconds: Int32(clamping: stallTimeout / 1_000_000))
            } catch {
                throw error.kind == .timedOut ? .timedOut : .closed
            }
            sent += Int64(bytes.count)
            return
        }
        var offset = 0
        let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
        while offset < bytes.count {
            let count = Foundation.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if count > 0 {
                offset += count
                sent += Int64(count)
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLOUT), deadline: clock.now() &+ stallTimeout, interruptible: false)
            default: throw .closed
            }
        }
    }

    /// Sends all of `bytes`; see ``send(_:stallTimeout:more:sent:)``.
    func send(_ bytes: [UInt8], stallTimeout: UInt64, more: Bool = false, sent: inout Int64) throws(Failure) {
        var failure: Failure?
        var progress: Int64 = 0
        bytes.withUnsafeBytes { buffer in
            do throws(Failure) {
                try send(buffer, stallTimeout: stallTimeout, more: more, sent: &progress)
            } catch {
                failure = error
            }
        }
        sent += progress
        if let failure { throw failure }
    }

    /// Sends `count` bytes of `file` starting at `offset` without copying them through user space.
    func sendFile(_ file: Int32, offset: Int64, count: Int64, stallTimeout: UInt64,
                  sent: inout Int64) throws(Failure) {
        if let tls {
            try sendFileTLS(tls, file, offset: offset, count: count, stallTimeout: stallTimeout, sent: &sent)
            return
        }
        #if os(Linux)
        var position = off_t(offset)
        let end = offset + count
        while Int64(position) < end {
            // sendfile(2) moves at most 0x7ffff000 bytes per call, so large files take several.
            let chunk = Int(min(end - Int64(position), 0x7fff_f000))
            let written = sendfile(descriptor, file, &position, chunk)
            if written > 0 {
                sent += Int64(written)
                continue
            }
            if written == 0 { throw .closed }  // the file shrank under us; the response cannot be completed
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLOUT), deadline: clock.now() &+ stallTimeout, interruptible: false)
            default: throw .closed
            }
        }
        #else
        throw .closed
        #endif
    }

    /// Waits until the socket is ready for `events` or `deadline` passes.
    func wait(for events: Int16, deadline: UInt64, interruptible: Bool) throws(Failure) {
        var descriptors = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: interruptible ? shutdownDescriptor : -1, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = clock.poll(&descriptors, until: deadline)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if ready == 0 { throw .timedOut }
            if descriptors[1].revents != 0 { throw .shuttingDown }
            let revents = descriptors[0].revents
            if revents & events != 0 { return }
            if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { throw .closed }
        }
    }

    private func receiveTLS(_ tls: TLSStream, into buffer: UnsafeMutableRawBufferPointer, deadline: UInt64,
                            interruptible: Bool) throws(Failure) -> Int {
        while true {
            let remaining = clock.millisecondsUntil(deadline)
            if remaining == 0 { throw .timedOut }
            // Short slices when a shutdown may end the wait, so the shutdown pipe is looked at.
            let read: TLSStream.Read
            do {
                read = try tls.read(into: buffer, timeoutMilliseconds: interruptible ? min(remaining, 100) : remaining)
            } catch {
                throw .closed
            }
            switch read {
            case let .bytes(count): return count
            case .closed: throw .closed
            case .timedOut:
                var entry = pollfd(fd: shutdownDescriptor, events: Int16(POLLIN), revents: 0)
                if interruptible, poll(&entry, 1, 0) == 1 { throw .shuttingDown }
            }
        }
    }

    /// Reads the file in pieces and writes each through TLS; encryption needs the bytes in user space.
    private func sendFileTLS(_ tls: TLSStream, _ file: Int32, offset: Int64, count: Int64, stallTimeout: UInt64,
                             sent: inout Int64) throws(Failure) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.tlsFileChunk, alignment: 16)
        defer { chunk.deallocate() }
        var position = offset
        let end = offset + count
        while position < end {
            let wanted = Int(min(end - position, Int64(chunk.count)))
            let got = pread(file, chunk.baseAddress, wanted, off_t(position))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw .closed }  // the file shrank under us
            try send(UnsafeRawBufferPointer(rebasing: chunk[0..<got]), stallTimeout: stallTimeout, sent: &sent)
            position += Int64(got)
        }
    }
}
