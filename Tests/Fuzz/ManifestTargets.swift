/*
Abstract:
Fuzz targets for the manifests a server sends: the asset-pack download manifest and the sample's session manifest.
*/

import AssetPackFormat
import Foundation
import SessionKit

extension FuzzTarget {
    static let manifestTargets: [FuzzTarget] = [
        FuzzTarget(name: "download-manifest",
                   summary: "AssetPackDownloadManifest(parsing:), the asset packs' manifest.json from the CDN") { data in
            _ = try? AssetPackDownloadManifest(parsing: data, source: "manifest.json")
        },
        FuzzTarget(name: "session-manifest",
                   summary: "Manifest.decode, the sample's session manifest the app and the extension read") { data in
            _ = try? Manifest.decode(data, source: "manifest.json", baseURL: URL(string: "http://127.0.0.1:8080/"))
        },
    ]
}
