/*
Abstract:
How many bytes a response body may bring, and how much disk to reserve for it, decided before its first byte.
*/

import BackgroundAssetsIPC
import Foundation

/// The most a body may grow the staging file to, and the space reserved for it.
///
/// The limit holds while the body arrives, not after: a byte past it fails the transfer before it
/// is written. It is, in order:
/// - the size the download declared (`fileSize`): that is the file the app asked for, whatever the
///   server says, so a longer or endless body (chunked, or ended by a close) fails at once;
/// - else the length the server announced (`Content-Length`, or a `Content-Range`'s complete length);
/// - else the free space on the staging disk, less ``keptFree`` for the rest of the system.
///
/// Disk is reserved only for a declared size: it is what the download may really use, and the app
/// answered for it (before the first launch it is charged to the app's allowance). A length only the
/// server announces is a claim: a 10 GB `Content-Length` followed by silence must not hold 10 GB of
/// someone's disk. Either length that cannot fit in the free space fails at once, before any byte.
struct BodyBudget: Equatable {
    /// Where the limit comes from, for the message when a body passes it.
    enum Source: Equatable {
        case declared
        case announced
        case freeSpace
    }

    /// The most bytes the staging file may hold; `Int64.max` when nothing is known at all.
    let limit: Int64
    let source: Source
    /// The whole file's length to reserve with `fallocate`, or `nil` to reserve nothing.
    let reservation: Int64?

    /// Free space left for the rest of the system when a body has no length at all.
    static let keptFree: Int64 = 64 << 20

    /// Decides the budget of one body.
    /// - Parameters:
    ///   - declared: The download's declared size, if it has one.
    ///   - announced: The whole file's length as the response gives it, if it does.
    ///   - written: The bytes already in the staging file, which the body continues.
    ///   - available: The staging disk's free bytes, or `nil` when unknown; asked only when a limit
    ///     needs it, since asking is a system call per download.
    ///   - file: The staging file, for the message.
    /// - Throws: A local ``TransferError`` (`ENOSPC`) when the file cannot fit in the free space.
    init(declared: Int64?, announced: Int64?, written: Int64, available: () -> Int64?, file: URL) throws(TransferError) {
        if let length = declared ?? announced {
            limit = length
            source = declared != nil ? .declared : .announced
            reservation = declared.flatMap { $0 >= PartFile.smallestReservation ? $0 : nil }
            // Only for lengths worth a reservation: a full disk found midway through a small file
            // costs nothing to speak of, and asking the file system is a call per download.
            if length >= PartFile.smallestReservation, let available = available(), length - written > available {
                let whose = declared != nil ? "the download declares" : "the server announced"
                throw TransferError(.local, .localFile(errno: ENOSPC),
                    "\(file.path) needs \(length - written) more bytes for the \(length) \(whose), but its disk has "
                    + "\(available) bytes free. \(PartFile.fullDiskHint)")
            }
        } else if let available = available() {
            let (sum, overflow) = written.addingReportingOverflow(max(0, available - Self.keptFree))
            limit = overflow ? .max : sum
            source = .freeSpace
            reservation = nil
        } else {
            limit = .max
            source = .freeSpace
            reservation = nil
        }
    }

    /// The error of a body that would pass the limit with `length` bytes in the file.
    func exceeded(at length: Int64, url: URL) -> TransferError {
        switch source {
        case .declared:
            TransferError(.remote, .sizeMismatch(expected: limit, actual: length),
                "\(url.absoluteString) sent more than the \(limit) bytes the download declared (\(length) so far); "
                + "the file on the server is not the one the download describes")
        case .announced:
            TransferError(.remote, .malformedResponse,
                "\(url.absoluteString) sent more than the \(limit) bytes its response announced (\(length) so far)")
        case .freeSpace:
            TransferError(.local, .localFile(errno: ENOSPC),
                "\(url.absoluteString) sent more than the disk can hold (\(length) bytes; \(Self.keptFree >> 20) MiB are kept "
                + "free for the rest of the system) for a download that declares no size. \(PartFile.fullDiskHint)")
        }
    }
}
