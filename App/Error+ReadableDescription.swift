/*
Abstract:
An error as a sentence for people, whichever framework raised it.
*/

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Error {
    /// The error's message: Background Assets' and Foundation's localized text, or the sentence
    /// SessionKit's and the app's errors describe themselves with.
    var readableDescription: String {
        switch self {
        // Foundation's own description of a URL error is a dump of its user info; its localized
        // description is the sentence.
        case let error as URLError: error.localizedDescription
        case let error as any LocalizedError: error.errorDescription ?? localizedDescription
        case let error as any CustomStringConvertible: error.description
        default: localizedDescription
        }
    }
}
