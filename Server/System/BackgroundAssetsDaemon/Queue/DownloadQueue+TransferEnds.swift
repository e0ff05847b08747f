/*
Abstract:
Recording how transfers ended: the files that finished together in one commit, each failure by the retry policy.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadQueue {
    /// A download whose whole file was handed over, to record with the others that ended with it.
    struct HandedOverFile {
        let id: Int64
        let length: Int64
        let file: URL
    }

    /// Reports a transfer's body's end or its own end, from its thread; the queue records it with
    /// the other reports made meanwhile (``TransferEnds``).
    nonisolated func report(_ report: TransferReport) {
        guard transferEnds.add(report) else { return }
        activities.run("ends of transfers") { [weak self] in await self?.recordTransferEnds() }
    }

    /// Records every transfer end reported so far: the downloads whose files were handed over in
    /// one commit, after all their hand-overs.
    ///
    /// The invariant across a restart: a download is recorded finished only once its file is
    /// handed over, and a download found transferring with its whole file handed over is finished
    /// by the next start from that file (``finishHandedOverDownloads()``). So a service killed
    /// between the hand-overs and their commit delivers each of those files again, fetching none.
    func recordTransferEnds() {
        var handedOver: [HandedOverFile] = []
        var folders = HandOverFolders()
        for report in transferEnds.takeAll() {
            switch report {
            case let .bodyEnded(id, control): bodyEnded(id: id, control: control)
            case let .ended(end): transferEnded(end, handingOverTo: &handedOver, folders: &folders)
            }
        }
        finish(handedOver)
    }

    /// Acts on the outcome of a transfer, unless the download was cancelled meanwhile: a file that
    /// arrived whole is handed over (into `folders`, the batch's) and added to `handedOver`, for
    /// the caller to record; a failure is recorded now.
    private func transferEnded(
        _ end: TransferEnd, handingOverTo handedOver: inout [HandedOverFile], folders: inout HandOverFolders
    ) {
        let id = end.id
        guard let transfer = running[id], transfer.control === end.control else { return }
        running[id] = nil
        defer { pumpAfterThisJob() }
        if end.result.reachedOrigin { originAnswered(transfer.row) }
        // Stopped to keep its partial file: whatever the outcome, the keeper takes it from here.
        if let keeper = partialFileKeepers.removeValue(forKey: id) { return keeper.fire() }
        do {
            switch end.result {
            case let .success(transferred):
                // The row as launched names the app group and the download; what changed since
                // (its state, its URL after a redirect) does not matter to the hand-over.
                let launched = transfer.row
                let handOver = Result { () throws(TransferError) in try staging.handOver(launched, folders: &folders) }
                if case let .failure(error) = handOver, error.kind == .localFile(errno: ENOENT) {
                    // Something deleted the staging file while the transfer wrote into it (the
                    // bytes went to an unlinked file): fetch the file again rather than fail.
                    try startOver(launched, because: "its staging file was deleted during the transfer")
                    return
                }
                let file = try handOver.get()
                credentials[id] = nil
                forgetFailures(of: id)
                handedOver.append(HandedOverFile(id: id, length: transferred.length, file: file))
            case let .failure(error):
                guard let row = try store.download(id: id) else { return }
                try handleFailure(row, error, restartedBecause: end.restartedBecause)
            }
        } catch let error as TransferError {
            if let row = try? store.download(id: id) { fail(row, error.wireFailure) }
        } catch {
            keepUnrecorded(.interrupted, of: id, because: error)
        }
    }

    /// Records that downloads' whole files were handed over, in one commit, and tells the observer
    /// of each; an end the store could not record is kept and recorded later
    /// (``keepUnrecorded(_:of:because:)``).
    func finish(_ handedOver: [HandedOverFile]) {
        for (file, error) in recordFinishes(handedOver) {
            keepUnrecorded(.finished(length: file.length, file: file.file), of: file.id, because: error)
        }
    }

    /// Records that a download's whole file was handed over and tells the observer.
    /// - Throws: The store's error; the end is then not recorded, and not on its way.
    func finish(id: Int64, length: Int64, file: URL) throws {
        if let (_, error) = recordFinishes([HandedOverFile(id: id, length: length, file: file)]).first { throw error }
    }

    /// Records the ends of downloads whose files were handed over, in one commit, and tells the
    /// observer of each recorded one. Each download is among the finishes on their way from before
    /// its row says finished (``FinishesOnTheirWay``); one the store could not record leaves them.
    /// - Returns: The files whose end was not recorded, and why.
    private func recordFinishes(_ handedOver: [HandedOverFile]) -> [(file: HandedOverFile, error: any Error)] {
        guard !handedOver.isEmpty else { return [] }
        for file in handedOver { finishesOnTheirWay.add(file.id) }
        let recorded: [Result<DownloadRow, any Error>]
        do {
            recorded = try store.updateEach(handedOver.map(\.id), at: wallClock.now, waitsForDisk: false) { index, row in
                Self.markFinished(&row, length: handedOver[index].length)
            }
        } catch {
            recorded = handedOver.map { _ in .failure(error) }
        }
        var unrecorded: [(file: HandedOverFile, error: any Error)] = []
        for (file, outcome) in zip(handedOver, recorded) {
            switch outcome {
            case let .success(row):
                observer(.finished(row, file: file.file))
            case let .failure(error):
                finishesOnTheirWay.remove(file.id)
                unrecorded.append((file, error))
            }
        }
        return unrecorded
    }

    /// Records that a download's whole file, of `length` bytes, was handed over.
    ///
    /// The file was synced before it was handed over (a pack archive excepted: see
    /// ``fetchAgain(id:because:)``). A power cut may take back this commit (not a crash of the
    /// service): the next boot then finishes the download again from its file.
    /// - Returns: The download as stored.
    @discardableResult
    func recordFinished(id: Int64, length: Int64) throws -> DownloadRow {
        try store.update(id: id, at: wallClock.now, waitsForDisk: false) { Self.markFinished(&$0, length: length) }
    }

    /// What a finished download's row says: finished, with every one of its `length` bytes durable.
    private static func markFinished(_ row: inout DownloadRow, length: Int64) {
        row.state = .finished
        row.bytesDurable = length
        row.expectedLength = length
        row.lastError = nil
    }
}
