/*
Abstract:
Runs a downloader extension's entry points as the system service calls them, until it is told to stop.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation
import ServiceClient
import Synchronization

/// The loop behind `BADownloaderExtension.main()`: checks in with the service, runs each entry
/// point the service calls, answers with what it returned, and ends when the service says the
/// extension will terminate or the connection is lost.
///
/// Entry points run one at a time, in the order their calls arrived, on a thread of their own:
/// not the connection's reader thread, which must keep reading (the answers to requests an entry
/// point makes arrive there), and not the delegate's callback thread. The asynchronous challenge
/// entry point runs in a task instead, so a challenge is answered even while another entry point
/// runs. The service times every call and kills an extension that overruns; the runner does not.
package final class ExtensionRunner: Sendable {
    /// Why the runner ended.
    package enum Outcome: Sendable, Equatable {
        /// The service called `extensionWillTerminate()` and received the answer.
        case terminated
        /// The connection to the service was lost, or could not be made, for the reason given.
        case connectionLost(String)
        /// The service refused the check-in, for the reason given.
        case checkInRefused(String)
    }

    let manager: BADownloadManager
    let handler: any BADownloaderExtension
    let entryPoints = WorkerThread(name: "ba-extension")
    private let outcome = Mutex<Outcome?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Creates a runner.
    /// - Parameters:
    ///   - manager: The manager whose connection the service calls on; entry points that schedule
    ///     downloads must use the same one (in the extension, `BADownloadManager.shared`).
    ///   - handler: The one instance of the extension whose entry points run.
    package init(manager: BADownloadManager, handler: any BADownloaderExtension) {
        self.manager = manager
        self.handler = handler
    }

    /// Checks in, then runs entry points until the runner ends; blocks the calling thread meanwhile.
    ///
    /// Call it once per runner.
    /// - Returns: Why the runner ended.
    package func run() -> Outcome {
        // Listen before checking in: the service starts calling as soon as the check-in is answered.
        let calls = manager.extensionCallObservers.add { [self] in receive($0.call, callID: $0.callID) }
        let losses = manager.disconnectObservers.add { [self] in finish(.connectionLost($0)) }
        defer {
            manager.extensionCallObservers.remove(calls)
            manager.disconnectObservers.remove(losses)
        }
        checkIn()
        ended.wait()
        // finish(_:) sets the outcome before it signals.
        return outcome.withLock { $0! }
    }

    /// Whether the runner has ended; calls that arrive afterwards are not run.
    var hasEnded: Bool { outcome.withLock { $0 != nil } }

    /// Ends the runner; the first outcome wins.
    /// - Parameter outcome: Why it ends.
    func finish(_ outcome: Outcome) {
        let isFirst = self.outcome.withLock { current in
            guard current == nil else { return false }
            current = outcome
            return true
        }
        if isFirst { ended.signal() }
    }

    private func checkIn() {
        do {
            let response = try manager.connection.send(.core(.extensionCheckIn))
            guard case .done = response else {
                return finish(.checkInRefused("the service answered the check-in with \(response)"))
            }
        } catch let error as BAError where error.code == .callerConnectionInvalid {
            finish(.connectionLost(error.message))
        } catch {
            finish(.checkInRefused("\(error)"))
        }
    }

    /// Starts one call; runs on the connection's reader thread, so it only hands the call on.
    private func receive(_ call: ExtensionCall, callID: UInt64) {
        switch call {
        case let .downloads(request, manifestPath, remaining, essentialRemaining):
            entryPoints.async { [self] in
                guard !hasEnded else { return }
                var downloads = downloads(
                    for: request, manifestPath: manifestPath, restrictedDownloadSizeRemaining: remaining,
                    restrictedEssentialDownloadSizeRemaining: essentialRemaining)
                sendInParts(&downloads, to: call, callID: callID, descriptor: \.descriptor) { $0.map(\.wireDescriptor) }
            }
        case let .finished(download, filePath):
            inOrder(call, callID: callID) {
                self.finished(download, filePath: filePath)
                return .done
            }
        case let .failed(download, failure):
            inOrder(call, callID: callID) {
                self.failed(download, failure: failure)
                return .done
            }
        case let .challenge(download, challenge):
            Task {
                let answer = await self.answer(challenge, for: download)
                self.reply(.challengeAnswer(answer), to: call, callID: callID)
            }
        case let .shouldDownload(manifestPath, packIDs):
            inOrder(call, callID: callID) { self.shouldDownload(manifestPath: manifestPath, packIDs: packIDs) }
        case .willTerminate:
            entryPoints.async { [self] in
                guard !hasEnded else { return }
                terminate(callID: callID)
            }
        }
    }

    /// Runs a synchronous entry point after those that arrived before it, then answers.
    private func inOrder(
        _ call: ExtensionCall, callID: UInt64, _ entryPoint: @escaping @Sendable () -> ExtensionCallResult
    ) {
        entryPoints.async { [self] in
            // After willTerminate the process is about to exit: nothing more runs.
            guard !hasEnded else { return }
            reply(entryPoint(), to: call, callID: callID)
        }
    }

    /// The most downloads one message of an answer carries: about 350 KB, where 100,000 downloads in
    /// one message would be more than a frame may hold.
    static let downloadsPerPart = 1_000

    /// How many parts may wait for the service's acknowledgement at once. The service schedules a part
    /// before it takes the next; without a window, the parts sent meanwhile would wait in its memory,
    /// read and decoded, which is the whole answer when the extension sends faster than it schedules.
    static let partsInFlight = 2

    /// Sends what an entry point returned, without waiting for the service's acknowledgement.
    ///
    /// Many downloads go in parts (`extensionCallReturnedPart`), the last of them with the return
    /// itself; the connection keeps their order, and the service schedules each part as it arrives,
    /// at most ``partsInFlight`` of them unacknowledged, in the order of ``sendsBefore(_:_:)``; an answer
    /// of one message keeps the order it was returned in.
    func reply(_ result: ExtensionCallResult, to call: ExtensionCall, callID: UInt64) {
        if case var .downloads(downloads) = result {
            return sendInParts(&downloads, to: call, callID: callID, descriptor: { $0 }) { Array($0) }
        }
        send(.core(.extensionCallReturned(callID: callID, result: result)), for: call)
    }

    /// The order returned downloads go in when they take more than one part: essential first, then by
    /// priority, then by identifier, the order the service admits one answer in, so the allowance
    /// takes the same downloads whether the answer came whole or in parts, and the same on every run.
    static func sendsBefore(_ first: DownloadDescriptor, _ second: DownloadDescriptor) -> Bool {
        (first.isEssential ? 1 : 0, first.priority, second.identifier) > (second.isEssential ? 1 : 0, second.priority, first.identifier)
    }

    /// Sends returned downloads in parts of ``downloadsPerPart``, the last part with the return, at
    /// most ``partsInFlight`` of them unacknowledged. An answer of one message keeps its order; one in
    /// parts is sorted first, in place (100,000 downloads are not held twice), by ``sendsBefore(_:_:)``.
    /// Each part's wire form is made only as it is sent: the wire form of 100,000 downloads at once
    /// was 10 MiB beside the downloads themselves, at the extension's peak.
    /// - Parameters:
    ///   - descriptor: A download's descriptor, for its order.
    ///   - wireForm: The descriptors of one part.
    private func sendInParts<Download>(
        _ downloads: inout [Download], to call: ExtensionCall, callID: UInt64,
        descriptor: (Download) -> DownloadDescriptor, wireForm: (ArraySlice<Download>) -> [DownloadDescriptor]
    ) {
        if downloads.count > Self.downloadsPerPart { downloads.sort { Self.sendsBefore(descriptor($0), descriptor($1)) } }
        let lastPartStart = downloads.isEmpty ? 0 : (downloads.count - 1) / Self.downloadsPerPart * Self.downloadsPerPart
        Self.send(stride(from: 0, to: lastPartStart, by: Self.downloadsPerPart), window: Self.partsInFlight) { start, answered in
            let part = wireForm(downloads[start..<(start + Self.downloadsPerPart)])
            send(.core(.extensionCallReturnedPart(callID: callID, downloads: part)), for: call, answered: answered)
        }
        send(.core(.extensionCallReturned(callID: callID, result: .downloads(wireForm(downloads[lastPartStart...])))), for: call)
    }

    /// Sends each part in order, at most `window` of them unanswered: it waits, on the caller's thread,
    /// until an earlier one is answered (`answered` is called on another thread, the connection's).
    static func send<Parts: Sequence>(_ parts: Parts, window: Int,
                                      through send: (Parts.Element, _ answered: @escaping @Sendable () -> Void) -> Void) {
        let unanswered = DispatchSemaphore(value: window)
        for part in parts {
            unanswered.wait()
            send(part) { unanswered.signal() }
        }
    }

    /// Sends one message of an entry point's answer, and reports a refusal.
    /// - Parameter answered: Called once the service answered, or the message was lost with the connection.
    private func send(_ message: ClientRequest, for call: ExtensionCall, answered: @escaping @Sendable () -> Void = {}) {
        manager.connection.request(message) { response in
            defer { answered() }
            do {
                _ = try BADownloadManager.unwrap(response)
            } catch let error as BAError where error.code == .callerConnectionInvalid {
                // The lost connection ends the runner, and main() says so once.
            } catch {
                // Most often the service already gave up on the call (it overran the runtime limit).
                StandardError.write("The system did not accept what \(call.entryPoint) returned: \(error)")
            }
        }
    }
}
