/*
Abstract:
Fuzz targets for what an HTTP server sends the transfer engine: the response head and a chunked body.
*/

import Foundation
import HTTPCore
#if DEBUG || FUZZING
// The chunked decoder is internal to the service: the script builds with -enable-testing, as debug builds are.
// A release build has no testable modules and goes without that one target.
@testable import BackgroundAssetsDaemon
#endif

extension FuzzTarget {
    static let httpTargets: [FuzzTarget] = [
        FuzzTarget(name: "http-head",
                   summary: "HTTPResponseHead(parsing:), a response head up to the blank line") { data in
            _ = try? HTTPResponseHead(parsing: data)
        },
    ] + chunkedTargets
}

#if DEBUG || FUZZING
extension FuzzTarget {
    static let chunkedTargets: [FuzzTarget] = [
        FuzzTarget(name: "chunked-body",
                   summary: "ChunkedBodyDecoder fed a body in two pieces, as the socket delivers it") { data in
            let (first, rest) = split(data)
            var decoder = ChunkedBodyDecoder()
            for piece in [first, rest] where !decoder.isComplete {
                let outcome: Void? = piece.withUnsafeBytes { bytes in
                    try? decoder.decode(bytes) { _ in }
                }
                guard outcome != nil else { return }
            }
        },
    ]
}
#else
extension FuzzTarget {
    static let chunkedTargets: [FuzzTarget] = []
}
#endif
