/*
Abstract:
End-to-end: after an install, the trace records the extension's entry points and renders as a Mermaid sequence diagram.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Draw the install as a sequence diagram")
    struct LifecycleTraceTests {
        @Test("trace --mermaid after an install is a well-formed Mermaid sequence diagram")
        func mermaidAfterInstall() async throws {
            try await withLifecycle(sessions: 3) { life in
                try life.write(life.behaviour())
                try await life.installAndWait()
                // The last launch ends with extensionWillTerminate() once every session is delivered.
                _ = try await life.waitForExtensionCalls("every session finished, then the termination") {
                    $0.downloads("finished").count == life.sessions.count && $0.last?.entryPoint == "willTerminate"
                }
                // The extension records the call as it runs; the service writes the trace line as it sends it.
                let entries = try await poll("the termination in the trace") { () -> [TraceEntry]? in
                    let entries = life.trace()
                    return entries.contains { $0.event == "extensionWillTerminate()" } ? entries : nil
                }
                let calls = entries.filter { $0.from == "backgroundassetsd" && $0.to == "extension" }.map(\.event)
                #expect(calls.contains("downloads(for:manifestURL:extensionInfo:)"), "\(calls)")
                #expect(calls.contains("backgroundDownload(_:finishedWithFileURL:)"), "\(calls)")
                #expect(calls.contains("extensionWillTerminate()"), "\(calls)")
                #expect(entries.contains { $0.event == "extensionLaunched" }, "\(entries.map(\.event))")

                let result = try await life.tool(["trace", "--mermaid"])
                let diagram = try MermaidSequenceDiagram(parsing: result.standardOutput)
                #expect(Set(diagram.participants.values).isSuperset(of: ["backgroundassetsd", "extension"]),
                        "\(diagram.participants)")
                #expect(diagram.messages.contains {
                    diagram.participants[$0.from] == "backgroundassetsd" && diagram.participants[$0.to] == "extension"
                        && $0.text.contains("downloads(for:manifestURL:extensionInfo:)")
                }, "\(result.standardOutput)")
            }
        }
    }
}

/// The parts of a Mermaid sequence diagram the trace uses, parsed strictly enough that a malformed line fails.
struct MermaidSequenceDiagram {
    /// One arrow: sender alias, receiver alias, and the label.
    struct Message {
        var from: String
        var to: String
        var text: String
    }

    /// Participant names by alias (`participant P0 as backgroundassetsd`; a bare `participant X` names itself).
    var participants: [String: String] = [:]
    /// The arrows, in order.
    var messages: [Message] = []

    /// Parses Mermaid source: `sequenceDiagram` first, then participants, arrows and notes.
    /// - Throws: `TestSupportError` naming the first line that is not one of those, or an undeclared participant.
    init(parsing text: String) throws {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first == "sequenceDiagram" else {
            throw TestSupportError("The diagram does not start with sequenceDiagram: \(lines.first ?? "nothing").")
        }
        let participant = /^participant ([A-Za-z0-9_]+)(?: as (.+))?$/
        let arrow = /^([A-Za-z0-9_]+)(--?>>)([A-Za-z0-9_]+): (.+)$/
        let note = /^Note (?:over|left of|right of) ([A-Za-z0-9_]+)(?:,([A-Za-z0-9_]+))?: (.+)$/
        for line in lines.dropFirst() {
            if let match = line.wholeMatch(of: participant) {
                participants[String(match.1)] = String(match.2 ?? match.1)
            } else if let match = line.wholeMatch(of: arrow) {
                try Self.require([String(match.1), String(match.3)], in: participants, line: line)
                messages.append(Message(from: String(match.1), to: String(match.3), text: String(match.4)))
            } else if let match = line.wholeMatch(of: note) {
                try Self.require([String(match.1)] + (match.2.map { [String($0)] } ?? []), in: participants, line: line)
            } else {
                throw TestSupportError("The diagram has a line Mermaid's sequenceDiagram does not accept: \(line)")
            }
        }
    }

    private static func require(_ aliases: [String], in participants: [String: String], line: String) throws {
        for alias in aliases where participants[alias] == nil {
            throw TestSupportError("The line '\(line)' names \(alias), which no participant line declared before it.")
        }
    }
}
