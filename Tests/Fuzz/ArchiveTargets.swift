/*
Abstract:
Fuzz targets for asset-pack archives: the header, the reader on a file, and the digester fed as bytes arrive.
*/

import Foundation
#if DEBUG || FUZZING
// The header's parser is internal: the script builds with -enable-testing, as debug builds are.
// A release build has no testable modules and goes without that one target.
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
    ]
}
#else
extension FuzzTarget {
    static let headerTargets: [FuzzTarget] = []
}
#endif
