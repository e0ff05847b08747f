/*
Abstract:
Tests for the one strict reader behind both settings files: sizes, unknown keys, old names, and values by kind.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Settings files")
struct SettingsFileTests {
    struct Sample: Equatable {
        var enabled = false
        var limit = 1.0
    }

    static let table: [String: SettingsFile.Setter<Sample>] = [
        "enabled": { sample, value throws(SettingsFile.Failure) in
            guard case let .flag(flag) = value else {
                throw SettingsFile.Failure(key: nil, reason: "\(value) is not true or false")
            }
            sample.enabled = flag
        },
        "limit": { sample, value throws(SettingsFile.Failure) in
            guard case let .number(number) = value, let limit = number.double else {
                throw SettingsFile.Failure(key: nil, reason: "\(value) is not a number")
            }
            sample.limit = limit
        },
        "oldLimit": { sample, value throws(SettingsFile.Failure) in
            guard case let .number(number) = value, let limit = number.double else {
                throw SettingsFile.Failure(key: nil, reason: "\(value) is not a number")
            }
            sample.limit = limit
        },
    ]

    static func load(_ json: String) throws -> Sample {
        let folder = try TemporaryDirectory()
        let url = folder.appending("settings.json")
        try Data(json.utf8).write(to: url)
        return try SettingsFile.load(url, defaults: Sample(), table: table, oldNames: ["oldLimit": "limit"])
    }

    @Test("A missing file or key leaves the defaults; known keys are applied")
    func applies() throws {
        let folder = try TemporaryDirectory()
        #expect(try SettingsFile.load(folder.appending("absent.json"), defaults: Sample(), table: Self.table) == Sample())
        #expect(try Self.load("{}") == Sample())
        #expect(try Self.load(#"{"enabled": true, "limit": 3}"#) == Sample(enabled: true, limit: 3))
        #expect(try Self.load(#"{"oldLimit": 5}"#) == Sample(enabled: false, limit: 5))
    }

    @Test("An unknown key is refused with the list of known keys")
    func unknownKey() {
        #expect { try Self.load(#"{"Enabled": true}"#) } throws: { error in
            let failure = error as? SettingsFile.Failure
            return failure?.key == "Enabled" && failure?.reason.contains("known: enabled, limit, oldLimit") == true
        }
    }

    @Test("An old name beside its new one is refused, naming the old one")
    func oldAndNewName() {
        #expect { try Self.load(#"{"oldLimit": 5, "limit": 3}"#) } throws: { error in
            let failure = error as? SettingsFile.Failure
            return failure?.key == "oldLimit" && failure?.reason.contains("keep only limit") == true
        }
    }

    @Test("A value of the wrong kind names its key, though the setter did not", arguments: [
        #"{"enabled": 1}"#, #"{"enabled": "yes"}"#, #"{"limit": true}"#, #"{"limit": null}"#, #"{"limit": [1]}"#,
    ])
    func wrongKind(_ json: String) {
        #expect { try Self.load(json) } throws: { error in
            let key = (error as? SettingsFile.Failure)?.key
            return key == "enabled" || key == "limit"
        }
    }

    @Test("A file that is not a JSON object is refused as a whole", arguments: ["{not json", "[true]", ""])
    func wholeFile(_ json: String) {
        #expect { try Self.load(json) } throws: { error in
            (error as? SettingsFile.Failure)?.key == nil
        }
    }

    @Test("JSON that is not strict is refused with its line and column", arguments: [
        (#"{"limit": 2,}"#, "line 1, column 13"),
        ("{\n  \"limit\": 2,\n}", "line 3, column 1"),
        (#"{"limit": 2} // two"#, "line 1, column 14"),
    ] as [(RawText, String)])
    func strictJSON(json: RawText, position: String) {
        #expect { try Self.load(json.text) } throws: { error in
            guard let failure = error as? SettingsFile.Failure else { return false }
            return failure.key == nil && failure.reason.contains("not valid JSON") && failure.reason.contains(position)
        }
    }

    @Test("Bytes that are not UTF-8 are refused with where they are")
    func notUTF8() throws {
        let folder = try TemporaryDirectory()
        let url = folder.appending("settings.json")
        try Data(#"{"limit": ""#.utf8 + [0xFF, 0xFE] + #""}"#.utf8).write(to: url)
        #expect {
            try SettingsFile.load(url, defaults: Sample(), table: Self.table)
        } throws: { error in
            (error as? SettingsFile.Failure)?.reason.contains("line 1, column") == true
        }
    }

    @Test("A key set twice is refused, naming it")
    func duplicateKey() {
        #expect { try Self.load(#"{"limit": 2, "limit": 3}"#) } throws: { error in
            (error as? SettingsFile.Failure)?.key == "limit"
        }
    }

    @Test("Numbers keep their text: whole numbers are told from fractions, and 1E400 is a number too large")
    func numbers() {
        #expect(SettingsFile.Number("12").integer == 12)
        #expect(SettingsFile.Number("1e3").integer == 1000)
        #expect(SettingsFile.Number("2.5").integer == nil)
        #expect(SettingsFile.Number("99999999999999999999").integer == nil)
        #expect(SettingsFile.Number("1E400").double == nil)
        #expect(SettingsFile.Value.number(SettingsFile.Number("1E400")).description == "the number 1E400")
    }

    @Test("A file larger than 1 MiB is refused before it is read")
    func oversized() {
        // Spaces around a valid object: only the size is wrong.
        let json = "{}" + String(repeating: " ", count: 1 << 20)
        #expect { try Self.load(json) } throws: { error in
            (error as? SettingsFile.Failure)?.reason.contains("1 MiB") == true
        }
    }

    @Test("A long string value is quoted briefly in the reason")
    func longString() {
        let long = String(repeating: "x", count: 10_000)
        #expect { try Self.load(#"{"limit": "\#(long)"}"#) } throws: { error in
            guard let reason = (error as? SettingsFile.Failure)?.reason else { return false }
            return reason.count < 200
        }
    }
}
