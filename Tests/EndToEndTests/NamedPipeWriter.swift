/*
Abstract:
The writing end of a named pipe a process under test reads as if it were a file: the test decides when each byte arrives.
*/

import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The writing end of a named pipe (`mkfifo`), opened once a reader has opened the other end.
///
/// A process reading a named pipe in place of a file waits in `read` for bytes the test has not
/// written yet: the test holds it at a chosen byte, however fast or slow the machine is.
/// Until ``close()``, the reader waits for more: closing is what gives it the end of the file.
final class NamedPipeWriter: Sendable {
    /// The pipe's file descriptor, open for writing and blocking.
    private let descriptor: Int32
    private let isOpen = Mutex(true)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Closes the writing end: the reader reads what is left, then the end of the file.
    func close() {
        let wasOpen = isOpen.withLock { isOpen in
            defer { isOpen = false }
            return isOpen
        }
        if wasOpen { Glibc.close(descriptor) }
    }

    /// Waits until a reader has opened the named pipe at `url`, then opens it for writing.
    /// - Parameter url: The named pipe.
    /// - Returns: The open writing end.
    /// - Throws: `TestSupportError` when the pipe cannot be opened, or when no reader came within the poll's bound.
    static func open(_ url: URL) async throws -> NamedPipeWriter {
        // Without a reader, a non-blocking open for writing fails with ENXIO; a blocking one would
        // wait for ever if the reader never came.
        let descriptor = try await poll("a reader of \(url.lastPathComponent)") { () throws -> Int32? in
            let descriptor = Glibc.open(url.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            guard errno == ENXIO else {
                throw TestSupportError("\(url.path) cannot be opened for writing: \(String(cString: strerror(errno))).")
            }
            return nil
        }
        // Writes block from here: the reader takes the bytes at its own pace.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return NamedPipeWriter(descriptor: descriptor)
    }

    /// Writes all of `data`, in one `write` when it fits in the pipe's atomic size (`PIPE_BUF`), so a
    /// reader that asks for a few bytes at a time finds them all there at once.
    /// - Parameter data: The bytes.
    /// - Throws: `TestSupportError` when the reader has gone or the write fails.
    func write(_ data: Data) async throws {
        try await blocking { [descriptor] in try Self.writeAll(data, to: descriptor) }
    }

    /// Writes the whole of `file` in chunks, the reader reading it as it goes.
    /// - Parameter file: A regular file.
    /// - Throws: `TestSupportError` when the file cannot be read, the reader has gone or the write fails.
    func write(contentsOf file: URL) async throws {
        try await blocking { [descriptor] in
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try Self.writeAll(chunk, to: descriptor)
            }
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws {
        // A reader that has gone turns the write into EPIPE on this thread, not a SIGPIPE that would
        // end the whole test process.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw TestSupportError("Writing to the named pipe failed: \(String(cString: strerror(errno))).")
                }
                offset += written
            }
        }
    }
}
