/*
Abstract:
Authentication challenges between the wire's form and Foundation's, for both frameworks that hand them to delegates.
*/

import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ChallengeDescriptor {
    /// The challenge as Foundation presents it to a delegate; the answer travels back through the
    /// delegate's completion handler, so the challenge's sender does nothing.
    package var authenticationChallenge: URLAuthenticationChallenge {
        let space = URLProtectionSpace(
            host: host, port: port, protocol: self.protocol, realm: realm, authenticationMethod: authenticationMethod)
        return URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: previousFailureCount,
            failureResponse: nil, error: nil, sender: ChallengeAnswerSender())
    }
}

extension ChallengeAnswer {
    /// The wire form of the answer a delegate or an extension chose.
    /// - Parameters:
    ///   - disposition: The disposition.
    ///   - credential: The credential, for `.useCredential`.
    package init(_ disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?) {
        self.init(disposition: Disposition(disposition), user: credential?.user, password: credential?.password)
    }
}

extension ChallengeAnswer.Disposition {
    /// The wire form of a delegate's disposition.
    package init(_ disposition: URLSession.AuthChallengeDisposition) {
        switch disposition {
        case .useCredential: self = .useCredential
        case .cancelAuthenticationChallenge: self = .cancelAuthenticationChallenge
        case .rejectProtectionSpace: self = .rejectProtectionSpace
        default: self = .performDefaultHandling
        }
    }
}

/// The sender a challenge requires; answers travel through the completion handler instead.
private final class ChallengeAnswerSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
