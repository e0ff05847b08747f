/*
Abstract:
Fuzz targets for asset-pack archives: the header, the reader on a file, the digester fed as bytes arrive, and a download's saved arrival state.
*/

import Foundation
#if DEBUG || FUZZING
// The header's parser and the arrival state's signature are internal: the script builds with
// -enable-testing, as debug builds are. A release build has no testable modules and goes without
// those targets.
@testable import AssetPackArchive
#else
import AssetPackArchive
#endif

extension FuzzTarget {
    static let archiveTargets: [FuzzTarget] = headerTargets + [
        FuzzTarget(name: "archive-reader",
                   summary: "AssetPackArchiveReader(url:) and extract(into: nil) on the input written to a file") { data in
            let url = ScratchFile.url(named: "archive.aar")
            guard (try? data.write(to: url)) != nil else { return }
            guard let reader = try? AssetPackArchiveReader(url: url) else { return }
            _ = try? reader.extract(into: nil, wholeFileDigest: true)
        },
        FuzzTarget(name: "archive-digester",
                   summary: "AssetPackArchiveDigester.update, the archive digested as its bytes arrive, in two pieces") { data in
            let (first, rest) = split(data)
            var digester = AssetPackArchiveDigester()
            first.withUnsafeBytes { _ = digester.update($0) }
            rest.withUnsafeBytes { _ = digester.update($0) }
            _ = digester.finish()
        },
    ]
}

#if DEBUG || FUZZING
extension FuzzTarget {
    static let headerTargets: [FuzzTarget] = [
        FuzzTarget(name: "archive-header",
                   summary: "AssetPackArchiveHeader(parsing:), the JSON header of an .aar the service downloaded") { data in
            _ = try? AssetPackArchiveHeader(parsing: data, source: "fuzz.aar")
        },
        FuzzTarget(name: "arrival-state",
                   summary: "ArchiveArrivalState(decoding:) and the digester and sink restored from it: a pack download's saved state read by the next service") { data in
            // The first part is the header bytes kept beside the state, the rest the state's JSON
            // body, sealed here as the service seals it: a fuzzer cannot forge the SHA-256, and the
            // checks after it are the ones worth reaching.
            let (sealed, body) = split(data)
            var digest = ArchiveDigest()
            digest.update(ArchiveArrivalState.signature + Array(body))
            let encoded = ArchiveArrivalState.signature + Array(body) + digest.finalizeBytes()
            guard let state = try? ArchiveArrivalState(decoding: encoded, path: "fuzz.arrival") else { return }
            let staging = ScratchFile.url(named: "staging")
            try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            let sink = try? state.resumingSink(in: staging, sealedBytes: Array(sealed), expecting: nil)
            _ = try? AssetPackArchiveDigester(restoring: state.digester, sealedBytes: Array(sealed), sink: sink)
        },
    ]
}
#else
extension FuzzTarget {
    static let headerTargets: [FuzzTarget] = []
}
#endif
