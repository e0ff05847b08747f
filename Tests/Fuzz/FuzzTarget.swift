/*
Abstract:
One parser of outside data as a fuzz target: a name, what it covers, and a function that feeds it bytes.
*/

import Foundation

/// A parser of outside data, fed arbitrary bytes.
///
/// `run` may throw or refuse anything; what it must never do is trap, hang or grow without bound,
/// because every one of these parsers reads bytes a peer, a server or a file on the device chose.
struct FuzzTarget: Sendable {
    /// The name the script and the replay tool select the target by.
    let name: String
    /// What the target covers, for `--list`.
    let summary: String
    /// Feeds one input to the parser.
    let run: @Sendable (Data) -> Void

    /// Every target, in the order the script runs them.
    static let all: [FuzzTarget] = archiveTargets + manifestTargets + settingsTargets + wireTargets + httpTargets

    /// The target with this name, if there is one.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// The input split in two at a point the input itself chooses (its first byte), so the fuzzer
    /// also explores how incremental decoders behave when bytes arrive in pieces of any size.
    static func split(_ data: Data) -> (first: Data, rest: Data) {
        guard let cut = data.first else { return (Data(), Data()) }
        let body = data.dropFirst()
        let index = body.startIndex + min(Int(cut), body.count)
        return (Data(body[..<index]), Data(body[index...]))
    }
}
