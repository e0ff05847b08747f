/*
Abstract:
The asset-pack store's records of pack versions on their way, and of each app's extension adoption.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

extension AssetPackStore {
    /// Records pack versions on their way, replacing the apps' earlier records of those packs, in one transaction.
    func savePending(_ downloads: [PendingAssetPackDownload]) throws {
        try database.transaction {
            for download in downloads { try savePending(download) }
        }
    }

    /// Records a pack version on its way, replacing the app's earlier record of that pack.
    func savePending(_ download: PendingAssetPackDownload) throws {
        let entry = AssetPackDownloadManifest(assetPacks: [download.entry]).jsonValue.encoded(pretty: false)
        try database.prepare(
            """
            INSERT OR REPLACE INTO pack_downloads (app, pack_id, entry, archive_url, essential, row_id, awaiting_answer)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ).bind([
            .text(download.app), .text(download.entry.id), .text(String(decoding: entry, as: UTF8.self)),
            .text(download.archiveURL.absoluteString), .int(download.isEssential ? 1 : 0),
            download.rowID.map { .integer($0) }, .bool(download.awaitsAnswer),
        ]).run()
    }

    /// Records a pack version that arrived as installed and forgets it as on its way, in one
    /// transaction: one wait for the disk rather than two at the end of every pack.
    func recordArrival(_ pack: InstalledAssetPack) throws {
        try database.transaction {
            try save(pack)
            try removePending(app: pack.bundleIdentifier, packID: pack.packID)
        }
    }

    /// Forgets a pack version that arrived, failed or was cancelled.
    func removePending(app: String, packID: String) throws {
        try database.prepare("DELETE FROM pack_downloads WHERE app = ? AND pack_id = ?")
            .bind([.text(app), .text(packID)]).run()
    }

    /// Every pack version on its way. A record the store cannot read back (it only writes valid
    /// ones) is skipped: its download, if any, then ends without an install.
    func pendingDownloads() throws -> [PendingAssetPackDownload] {
        try database.prepare("""
            SELECT app, entry, archive_url, essential, row_id, awaiting_answer FROM pack_downloads ORDER BY app, pack_id
            """)
            .rows { row -> PendingAssetPackDownload? in
                guard let manifest = try? AssetPackDownloadManifest(parsing: Data(row.text(1).utf8), source: "pack_downloads.entry"),
                      let entry = manifest.assetPacks.first, let url = URL(string: row.text(2)) else { return nil }
                return PendingAssetPackDownload(app: row.text(0), entry: entry, archiveURL: url, isEssential: row.bool(3),
                                                rowID: row.isNull(4) ? nil : row.int64(4), awaitsAnswer: row.bool(5))
            }.compactMap { $0 }
    }

    /// Records whether an app's extension adopts `ManagedDownloaderExtension`, and its type's name.
    func saveAdoption(app: String, isManaged: Bool, typeName: String?) throws {
        try database.prepare("INSERT OR REPLACE INTO extension_adoption (app, managed, type_name) VALUES (?, ?, ?)")
            .bind([.text(app), .int(isManaged ? 1 : 0), typeName.map { .text($0) }]).run()
    }

    /// Each app whose extension was found not to adopt `ManagedDownloaderExtension`, with its type's name.
    func unmanagedExtensions() throws -> [String: String] {
        let rows = try database.prepare("SELECT app, type_name FROM extension_adoption WHERE managed = 0")
            .rows { ($0.text(0), $0.isNull(1) ? "" : $0.text(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
