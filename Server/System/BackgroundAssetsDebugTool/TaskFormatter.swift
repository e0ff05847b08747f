/*
Abstract:
Renders Background Tasks requests: one line per request or running task, for `tasks` and `status`.
*/

import BackgroundAssetsIPC
import Foundation

/// Turns ``TaskStatus`` values into lines a person can read and `grep` can match.
struct TaskFormatter {
    var tasks: [TaskStatus]

    /// One line per task: `APP IDENTIFIER refresh, pending, earliest 2026-…: may run now`, or for a
    /// continued-processing task `APP IDENTIFIER continued processing, running: running 12 s, 45% (45 of 100), "Title" "Subtitle"`.
    func lines() -> [String] {
        tasks.map { task in
            let request = task.request
            var facts = [request.kind.displayName, task.state.rawValue]
            if let begin = request.earliestBeginDate { facts.append("earliest \(begin.formatted(.iso8601))") }
            if request.kind == .continuedProcessing, task.progress == nil, let title = request.title {
                facts.append("\"\(title)\" \"\(request.subtitle ?? "")\"")
            }
            var needs: [String] = []
            if (request.requiredResources ?? 0) & 1 != 0 { needs.append("the GPU") }
            if request.requiresExternalPower { needs.append("power") }
            if request.requiresNetworkConnectivity { needs.append("network") }
            if !needs.isEmpty { facts.append("requires \(needs.joined(separator: " and "))") }
            return "\(StatusFormatter.shortened(task.bundleIdentifier)) \(StatusFormatter.shortened(request.identifier)) "
                + "\(facts.joined(separator: ", ")): \(task.summary)"
        }
    }

    /// The section `status` adds when any request is pending or running.
    func section() -> String? {
        guard !tasks.isEmpty else { return nil }
        return (["Background Tasks:"] + lines().map { "  " + $0 }).joined(separator: "\n")
    }
}
