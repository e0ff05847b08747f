/*
Abstract:
Whole reads and writes on file descriptors, retrying short transfers and interruptions.
*/

import BackgroundAssetsIPC
import Foundation

/// The read and write loops archives need, with the errno text of a failure.
enum FileDescriptorIO {
    /// Reads exactly `count` bytes at `offset` into `buffer`, or fewer only at the end of the file.
    /// - Returns: The number of bytes read.
    /// - Throws: The reason, as text, when the read fails.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int,
                     at offset: Int64) throws(IOFailure) -> Int {
        var total = 0
        while total < count, let base = buffer.baseAddress {
            let result = pread(descriptor, base + total, count - total, off_t(offset + Int64(total)))
            if result < 0 {
                if errno == EINTR { continue }
                throw IOFailure(reason: errnoText())
            }
            if result == 0 { break }
            total += result
        }
        return total
    }

    /// Reads as ``read(_:into:count:at:)`` does, a failure told as the archive's.
    /// - Parameter path: The archive or file read, for the error.
    /// - Throws: ``AssetPackArchiveError`` (`.io`) naming `path` when the read fails.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int, at offset: Int64,
                     path: String) throws(AssetPackArchiveError) -> Int {
        do {
            return try read(descriptor, into: buffer, count: count, at: offset)
        } catch {
            throw AssetPackArchiveError(.io, path: path, problem: "cannot be read (\(error.reason)).")
        }
    }

    /// Writes every byte of `bytes`.
    /// - Throws: The reason, as text, when the write fails.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(IOFailure) {
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            let result = Foundation.write(descriptor, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw IOFailure(reason: errnoText())
            }
            written += result
        }
    }

    /// Why a read or write failed.
    struct IOFailure: Error {
        let reason: String
    }
}
