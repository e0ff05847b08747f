/*
Abstract:
One line the test extension or the test app recorded, and reading a whole file of them back.
*/

import Foundation

/// One thing `lifecycle-test-extension` or `lifecycle-test-app` recorded.
///
/// The writers are Tests/lifecycle-test-extension/CallLog.swift and Tests/lifecycle-test-app/AppCallLog.swift.
struct LifecycleCallRecord: Decodable, Sendable, Equatable {
    /// What happened, such as `downloads`, `finished`, `failed`, `willTerminate`, `launchable`.
    var entryPoint: String
    var request: Int?
    var download: String?
    var isEssential: Bool?
    var isExactlyURLDownload: Bool?
    var errorDomain: String?
    var errorCode: Int?
    var errorMessage: String?
    var path: String?
    var fileExists: Bool?
    var fileMode: Int?
    var movedTo: String?
    var returned: [String]?
    var restrictedDownloadSizeRemaining: Int?
    var restrictedEssentialDownloadSizeRemaining: Int?
    var bundleIdentifier: String?
    var role: String?
    var completedBytes: Int64?
    var totalBytes: Int64?
    var essentialEnded: Int?
    var essentialTotal: Int?
    /// The recording process.
    var pid: Int32
    /// When it was recorded, in seconds since 1970.
    var time: Double

    /// When it was recorded.
    var date: Date { Date(timeIntervalSince1970: time) }

    /// Every record in a JSON-lines file; a missing file reads as empty, a torn last line is skipped.
    /// - Parameter file: `calls.jsonl` or `app-calls.jsonl`.
    static func all(in file: URL) -> [LifecycleCallRecord] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? decoder.decode(LifecycleCallRecord.self, from: Data($0))
        }
    }
}

extension [LifecycleCallRecord] {
    /// The records of one entry point, in order.
    func calls(_ entryPoint: String) -> [LifecycleCallRecord] {
        filter { $0.entryPoint == entryPoint }
    }

    /// The `downloads` records of one request kind (1 install, 2 update, 3 periodic).
    func contentRequests(_ kind: Int) -> [LifecycleCallRecord] {
        filter { $0.entryPoint == "downloads" && $0.request == kind }
    }

    /// The identifiers of the downloads delivered through one entry point, such as `finished`.
    func downloads(_ entryPoint: String) -> Set<String> {
        Set(calls(entryPoint).compactMap(\.download))
    }
}
