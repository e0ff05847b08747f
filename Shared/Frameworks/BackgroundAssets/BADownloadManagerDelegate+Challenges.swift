/*
Abstract:
The default challenge methods: each calls the other form, so a delegate may implement either one.
*/

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which default challenge method is running in the current task, so the two defaults do not call
/// each other forever when a delegate implements neither form.
enum ChallengeDefault {
    /// Set while the completion-handler default waits for the `async` form.
    @TaskLocal static var isForwardingToAsync = false
    /// Set while the `async` default waits for the completion-handler form.
    @TaskLocal static var isForwardingToCompletionHandler = false
}

extension BADownloadManagerDelegate {
    /// Calls the `async` form, ``download(_:didReceive:)``, and passes its answer to the handler;
    /// when the delegate implements neither form, answers `.performDefaultHandling`.
    public func download(
        _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Reached from the async default: the delegate implements neither form.
        guard !ChallengeDefault.isForwardingToCompletionHandler else {
            return completionHandler(.performDefaultHandling, nil)
        }
        // The delegate and the challenge are not Sendable; the task is their only user from here on.
        let call = UncheckedReference((delegate: self, download: download, challenge: challenge))
        Task {
            let (disposition, credential) = await ChallengeDefault.$isForwardingToAsync.withValue(true) {
                await call.value.delegate.download(call.value.download, didReceive: call.value.challenge)
            }
            completionHandler(disposition, credential)
        }
    }

    /// Calls the completion-handler form and returns its answer; when the delegate implements neither
    /// form, returns `.performDefaultHandling`.
    public func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        // Reached from the completion-handler default: the delegate implements neither form.
        guard !ChallengeDefault.isForwardingToAsync else { return (.performDefaultHandling, nil) }
        let answer = await ChallengeDefault.$isForwardingToCompletionHandler.withValue(true) {
            await withCheckedContinuation { continuation in
                self.download(download, didReceive: challenge) { disposition, credential in
                    continuation.resume(returning: UncheckedReference((disposition, credential)))
                }
            }
        }
        return answer.value
    }
}
