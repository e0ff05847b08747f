/*
Abstract:
A hook that sees every byte a transfer writes to its staging file, in order, so a download can be digested as it arrives.
*/

/// Sees the bytes of a staging file in order, as a transfer writes them.
///
/// For whoever must digest a download as it arrives rather than read it all again once it is
/// complete. The transfer calls it on its own thread, after each write succeeded; it must not
/// block for long and cannot fail the transfer. A body may start past the first byte (a resumed
/// download): ``bodyBegan(at:partFile:)`` says where, and the bytes before are in the staging file.
protocol TransferBodyObserver: Sendable {
    /// A response body starts at `offset`. The staging file's first `offset` bytes (from an earlier
    /// attempt, or from before the service restarted) can be read through `partFile`; whatever was
    /// seen before belongs to an attempt that ended, and is forgotten.
    func bodyBegan(at offset: Int64, partFile: Int32)

    /// `bytes` were written to the staging file, right after the bytes seen so far.
    func bodyWrote(_ bytes: UnsafeRawBufferPointer)
}
