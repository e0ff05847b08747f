/*
Abstract:
Unit tests of how `status` renders the service's state: plain lines, an aligned table, and JSON.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Render the service's status")
struct StatusFormatterTests {
    let status = ServiceStatus(
        processIdentifier: 42, deviceRoot: "/tmp/device", connectionCount: 1,
        downloads: [
            DownloadStatus(
                bundleIdentifier: "com.example.app",
                download: DownloadDescriptor(
                    identifier: "session-1", uniqueIdentifier: "U1", url: "http://127.0.0.1/a",
                    applicationGroupIdentifier: "group.example", state: .waiting),
                isForeground: false, bytesWritten: 10, bytesExpected: 100, attempts: 2,
                lastError: WireFailure(domain: "NSURLErrorDomain", code: -1004, message: "could not connect"),
                nextAttemptAt: Date(timeIntervalSince1970: 0)),
            DownloadStatus(
                bundleIdentifier: "com.example.app",
                download: DownloadDescriptor(
                    identifier: "../../x\u{0}", uniqueIdentifier: "U2", url: "http://127.0.0.1/b",
                    applicationGroupIdentifier: "group.example", isEssential: true, state: .downloading),
                isForeground: true, bytesWritten: 0, bytesExpected: nil, attempts: 1, lastError: nil, nextAttemptAt: nil),
        ])

    @Test("Plain lines carry one key=value pair per field, with control characters escaped")
    func plainLines() {
        let all = StatusFormatter(status: status).lines().split(separator: "\n")
        #expect(all.count == 4)
        #expect(all[0].contains("pid 42"))
        #expect(all[0].contains("0 app(s), 2 download(s)"))
        #expect(all[1] == "settings low-power=off background-refresh=on in-app-content=on external-power=on network=reachable")
        let lines = all.filter { $0.hasPrefix("app=") }
        #expect(lines.count == 2)
        #expect(lines[0].contains("state=waiting"))
        #expect(lines[0].contains("written=10 expected=100 attempts=2"))
        #expect(lines[0].contains("error=\"could not connect\""))
        #expect(lines[1].contains("id=../../x\\0"))
        #expect(lines[1].contains("essential=yes foreground=yes"))
        #expect(lines[1].contains("expected=- attempts=1 next-retry=- error=-"))
    }

    @Test("A download parked behind its host's probe shows when-reachable, not a date")
    func parkedDownload() throws {
        var parked = status
        parked.downloads[0].nextAttemptAt = nil
        parked.downloads[0].waitsUntilReachable = true
        let formatter = StatusFormatter(status: parked)
        #expect(formatter.lines().contains("attempts=2 next-retry=when-reachable error=\"could not connect\""))
        #expect(formatter.table().contains("when-reachable"))
        #expect(try formatter.json().contains(#""waitsUntilReachable" : true"#))
    }

    @Test("Work paused after repeated crashes is said right after the service's line, in the table, the lines and JSON")
    func pausedWork() throws {
        var paused = status
        paused.pausedWork = "The service crashed 5 times in 2 minute(s)."
        let formatter = StatusFormatter(status: paused)
        #expect(formatter.table().split(separator: "\n")[1] == "paused: The service crashed 5 times in 2 minute(s).")
        #expect(formatter.lines().split(separator: "\n")[1] == "paused: The service crashed 5 times in 2 minute(s).")
        #expect(try formatter.json().contains(#""pausedWork" : "The service crashed 5 times in 2 minute(s).""#))
        #expect(!StatusFormatter(status: status).table().contains("paused:"), "nothing while the work runs")
    }

    @Test("The table aligns its columns under a header, after the settings and the apps")
    func table() throws {
        let rows = StatusFormatter(status: status).table().split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        #expect(rows[0].contains("pid 42"))
        #expect(rows[1].hasPrefix("Settings: "))
        #expect(rows.contains("No apps installed."))
        let header = try #require(rows.firstIndex { $0.hasPrefix("APP") })
        #expect(rows.count == header + 3, "\(rows)")
        let cells = [("STATE", rows[header]), ("waiting", rows[header + 1]), ("downloading", rows[header + 2])]
        let columns = cells.map { word, row in
            row.range(of: word).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
        }
        #expect(Set(columns).count == 1, "\(rows)")
    }

    @Test("JSON round-trips to the same status")
    func json() throws {
        let text = try StatusFormatter(status: status).json()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(ServiceStatus.self, from: Data(text.utf8)) == status)
    }
}
