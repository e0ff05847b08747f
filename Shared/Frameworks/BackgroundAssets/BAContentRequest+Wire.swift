/*
Abstract:
Converts the wire's content request kind to the framework's `BAContentRequest`.
*/

import BackgroundAssetsIPC

extension BAContentRequest {
    /// The content request a wire value stands for; both have Apple's raw values.
    /// - Parameter kind: The kind the service sent.
    init(_ kind: ContentRequestKind) {
        switch kind {
        case .install: self = .install
        case .update: self = .update
        case .periodic: self = .periodic
        }
    }
}
