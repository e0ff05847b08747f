/*
Abstract:
Deadline-aware reads, writes and sendfile on a non-blocking socket, built on poll(2).
*/

import Foundation
import HTTPCore

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

    /// Reads what is available into `buffer`, waiting until `deadline` (monotonic nanoseconds) for data.
    /// - Parameter interruptible: Whether a server shutdown ends the wait (true between requests).
    /// - Returns: The number of bytes read, at least 1.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: UInt64,
                 interruptible: Bool) throws(Failure) -> Int {
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
                try wait(for: Int16(POLLOUT), deadline: MonotonicClock.now() &+ stallTimeout, interruptible: false)
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
                try wait(for: Int16(POLLOUT), deadline: MonotonicClock.now() &+ stallTimeout, interruptible: false)
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
            let timeout = MonotonicClock.millisecondsUntil(deadline)
            if timeout == 0 { throw .timedOut }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if ready == 0 { continue }  // loop to re-check the deadline, which ends the wait
            if descriptors[1].revents != 0 { throw .shuttingDown }
            let revents = descriptors[0].revents
            if revents & events != 0 { return }
            if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { throw .closed }
        }
    }
}
