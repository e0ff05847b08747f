/*
Abstract:
A hook that sees every byte of a transfer's body, in order, and may keep some out of the staging file by storing them itself.
*/

/// Sees the bytes of a download's body in order, as they arrive.
///
/// For whoever must digest a download as it arrives rather than read it all again once it is
/// complete, or write its bytes where they belong at once. The transfer calls it on its own
/// thread, before writing each piece; it must not block for long. A body may start past the first
/// byte (a resumed download): ``bodyBegan(at:partFile:)`` says where.
///
/// An observer that stores bytes itself (``bodyArrived(_:)`` returns where they are) leaves holes in the
/// staging file, which it alone can fill: so it also says where a transfer may resume
/// (``resumableOffset(upTo:)``), and a transfer it cannot continue starts over from zero. The
/// staging file still spans the holes (``PartFile/spanHoles(upTo:)``), so the offset the next
/// attempt asks for is the byte the observer stopped at. To resume after a restart of the service
/// too, it makes what it stored durable at each checkpoint (``checkpoint(at:)``), before the queue
/// records the checkpoint.
protocol TransferBodyObserver: Sendable {
    /// Where a transfer whose staging file holds `offset` bytes may resume: `offset`, an earlier
    /// byte the observer can continue from (the staging file is cut back to it), or 0 to start over.
    func resumableOffset(upTo offset: Int64) -> Int64

    /// A response body starts at `offset`. The staging file's first `offset` bytes (from an earlier
    /// attempt) can be read through `partFile`, unless the observer stored them itself.
    func bodyBegan(at offset: Int64, partFile: Int32)

    /// `bytes` arrived, right after the bytes seen so far.
    /// - Returns: Where, among `bytes`, are those the observer stored itself, so the staging file
    ///   skips them and keeps the rest; empty when it stored none.
    /// - Throws: ``TransferError`` when it can neither store them nor let the staging file have
    ///   them, which ends the attempt.
    func bodyArrived(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Range<Int>

    /// A checkpoint of the `length` bytes seen so far is being taken, on the transfer's thread.
    /// - Returns: The work that makes the observer's part of those bytes durable, or `nil` for
    ///   none. The transfer runs it after syncing the staging file and before the checkpoint is
    ///   recorded, maybe on another thread while more bytes arrive; a failure it cannot recover
    ///   from leaves the observer's saved state at an earlier byte, which it resumes from.
    func checkpoint(at length: Int64) -> (@Sendable () -> Void)?
}
