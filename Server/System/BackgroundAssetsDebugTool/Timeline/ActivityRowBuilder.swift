/*
Abstract:
Reads the trace's entries about processes and the system into the timeline's activity rows.
*/

import BackgroundAssetsIPC
import Foundation

/// Folds trace entries, in order, into one ``ActivityRow`` per kind of activity.
struct ActivityRowBuilder {
    /// The extension entry points the service calls; each is a tick on the extension's row.
    static let entryPoints: Set<String> = [
        "downloads(for:manifestURL:extensionInfo:)", "backgroundDownload(_:finishedWithFileURL:)",
        "backgroundDownload(_:failedWithError:)", "backgroundDownload(_:didReceive:)", "extensionWillTerminate()",
    ]

    private var rows: [ActivityRow.Kind: ActivityRow] = [:]
    /// Spans still open, by row and by what pairs their start with their end (an app, a pid, a task).
    private var open: [ActivityRow.Kind: [String: Int]] = [:]
    /// Per app: when the install's extension had its downloads scheduled, and the last essential end.
    private var essentialStart: [String: Date] = [:]
    private var essentialEnd: [String: Date] = [:]
    /// The app processes the service launched in the background, by pid.
    private var backgroundPIDs: Set<String> = []
    /// Per app: the periodic check whose content request waits for the extension's answer.
    private var pendingCheck: [String: Int] = [:]
    /// How many connections each role of each app has open, for when a holder of exclusive control goes.
    private var connections: [String: Int] = [:]

    /// Takes one entry into account.
    mutating func add(_ entry: TraceEntry) {
        let app = entry.app ?? ""
        switch entry.event {
        case "install", "update":
            guard entry.detail?.contains("already installing") != true else { return }
            let version = entry.detail.map { " (\($0))" } ?? ""
            openSpan(.install, key: app, at: entry, label: "\(entry.event)\(version)", detail: app)
        case "simulate" where ["install", "update"].contains(entry.detail ?? ""):
            openSpan(.install, key: app, at: entry, label: "simulated \(entry.detail ?? "")", detail: app)
        case "simulate" where entry.detail == "periodic":
            moment(.periodic, at: entry, "simulated periodic check", .trigger)
        case "contentRequest" where ["install", "update"].contains(entry.detail ?? ""):
            // An install resumed by a restarted service has no install entry of its own.
            if open[.install]?[app] == nil { openSpan(.install, key: app, at: entry, label: entry.detail ?? "", detail: app) }
        case "contentRequest" where entry.detail == "periodic":
            if let checks = rows[.periodic]?.moments, !checks.isEmpty { pendingCheck[app] = checks.count - 1 }
        case "scheduleReturnedDownloads":
            if open[.install]?[app] != nil { essentialStart[app] = entry.time }
            // What a periodic check came to goes on its diamond: a check that found nothing says so.
            if let index = pendingCheck.removeValue(forKey: app) {
                rows[.periodic]?.moments[index].label += ": " + Self.returned(entry.detail)
            }
        case "finishedWithFileURL", "failedWithError":
            if entry.to == "backgroundassetsd" { essentialEnd[app] = entry.time }
        case "appLaunchable":
            closeInstall(of: app, at: entry)
        case "uninstall":
            closeInstall(of: app, at: entry)
            moment(.install, at: entry, "uninstall", .trigger)
        case "manifestFailed":
            moment(.install, at: entry, "manifest failed: \(entry.detail ?? "")", .problem)
        case "extensionLaunched":
            openSpan(.extension, key: app, at: entry, label: Self.process("extension", entry.detail), detail: app)
        case _ where entry.to == "extension" && Self.entryPoints.contains(entry.event):
            let subject = [entry.download, entry.detail].compactMap { $0 }.joined(separator: " ")
            moment(.extension, at: entry, subject.isEmpty ? entry.event : "\(entry.event) \(subject)")
        case "extensionKilled":
            update(.extension, key: app) { $0.endedByForce = true }
            moment(.extension, at: entry, "killed: \(entry.detail ?? "")", .problem)
        case "extensionExited":
            closeSpan(.extension, key: app, at: entry.time, detail: entry.detail)
        case "extensionNotLaunched":
            moment(.extension, at: entry, "not launched: \(entry.detail ?? "")", .problem)
        case "launchInBackground":
            // `pid 123, for its task …`: the process is the key its connections and its end name it by.
            guard let pid = entry.detail.map({ String($0.prefix { $0 != "," }) }), pid.hasPrefix("pid ") else { return }
            backgroundPIDs.insert(pid)
            openSpan(.app, key: pid, at: entry, label: Self.process("app in the background", pid),
                     detail: "\(app), \(entry.detail ?? "")", style: .secondary)
        case "connected" where entry.from == "app":
            // A process the service launched in the background already has its span.
            let pid = entry.detail ?? ""
            if open[.app]?[pid] == nil { openSpan(.app, key: pid, at: entry, label: Self.process("app", pid), detail: app) }
        case "disconnected" where entry.from == "app":
            // A background launch lasts until its process ends, whatever its connections do.
            guard !backgroundPIDs.contains(entry.detail ?? "") else { break }
            closeApp(pid: entry.detail, at: entry.time, detail: "disconnected")
        case "backgroundLaunchDone":
            let pid = entry.detail.map { String($0.prefix { $0 != ";" }) }
            closeApp(pid: pid, at: entry.time, detail: entry.detail)
            if let pid { backgroundPIDs.remove(pid) }
        case "appLaunched":
            moment(.app, at: entry, "launch gate: launched")
        case "launchTask":
            let identifier = entry.detail.map { String($0.prefix { $0 != " " }) } ?? ""
            openSpan(.tasks, key: app + " " + identifier, at: entry, label: entry.detail ?? "task", detail: app)
        case "taskCompleted", "taskEnded", "taskKilled":
            let identifier = entry.detail.map { String($0.prefix { $0 != " " && $0 != ":" }) } ?? ""
            // The task's own span, else (an ending that names no task) the app's open one.
            let named = app + " " + identifier
            let key = open[.tasks]?[named] != nil ? named : open[.tasks]?.keys.first { $0.hasPrefix(app) }
            if entry.event == "taskKilled", let key { update(.tasks, key: key) { $0.endedByForce = true } }
            if let key { closeSpan(.tasks, key: key, at: entry.time, detail: "\(entry.event) \(entry.detail ?? "")") }
        case "submitTaskRequest":
            moment(.tasks, at: entry, "submitted \(entry.detail ?? "")")
        case "simulateLaunchTask":
            moment(.tasks, at: entry, "simulated launch of \(entry.detail ?? "")", .trigger)
        case "expireTask":
            moment(.tasks, at: entry, "expiration handler of \(entry.detail ?? "")", .problem)
        case "periodicCheck":
            moment(.periodic, at: entry, "periodic check", .trigger)
        case "acquireExclusiveControl":
            closeSpan(.exclusiveControl, key: app, at: entry.time, detail: nil)
            openSpan(.exclusiveControl, key: app, at: entry, label: "held by the \(entry.from)", detail: app,
                     style: entry.from == "extension" ? .secondary : .main)
        case "releaseExclusiveControl":
            closeControl(of: app, heldBy: entry.from, at: entry.time)
        case TraceSignpost.beginEvent, TraceSignpost.endEvent, TraceSignpost.emitEvent:
            addSignpost(entry)
        default:
            break
        }
        countConnections(entry)
    }

    /// Counts each role's open connections; a holder of exclusive control that loses its last one gives
    /// control back. (The trace does not say which of a role's connections held it.)
    private mutating func countConnections(_ entry: TraceEntry) {
        let key = "\(entry.from) \(entry.app ?? "")"
        if entry.event == "connected" { connections[key, default: 0] += 1 }
        guard entry.event == "disconnected" else { return }
        connections[key] = max(0, (connections[key] ?? 1) - 1)
        if connections[key] == 0 { closeControl(of: entry.app ?? "", heldBy: entry.from, at: entry.time) }
    }

    /// The rows that have something to draw, in a fixed order, with spans still open at `end` closed there.
    func rows(endingAt end: Date) -> [ActivityRow] {
        ActivityRow.Kind.allCases.compactMap { kind in
            guard var row = rows[kind], !row.isEmpty else { return nil }
            for (_, index) in open[kind] ?? [:] {
                row.spans[index].end = max(row.spans[index].start, end)
                row.spans[index].isOpen = true
            }
            return row
        }
    }

    /// An app's or extension's signposts: an interval from each begin to the end with its ID, in the
    /// same process; an event as a moment.
    private mutating func addSignpost(_ entry: TraceEntry) {
        guard let signpost = entry.signpost else { return }
        let key = "\(signpost.process) \(signpost.subsystem) \(signpost.category) \(signpost.name) \(signpost.id)"
        let message = entry.detail.map { ": \($0)" } ?? ""
        switch entry.event {
        case TraceSignpost.beginEvent:
            openSpan(.signposts, key: key, at: entry, label: signpost.name,
                     detail: "\(entry.from) \(signpost.process), \(signpost.category)\(message)")
        case TraceSignpost.endEvent:
            closeSpan(.signposts, key: key, at: entry.time, detail: entry.detail)
        default:
            moment(.signposts, at: entry, signpost.name + message)
        }
    }

    /// A process's label, one style for every kind: `app (pid 123)`, `extension (pid 456)`.
    static func process(_ name: String, _ pid: String?) -> String {
        guard let pid, !pid.isEmpty else { return name }
        return "\(name) (\(pid))"
    }

    /// The extension's answer to a content request in words, from `3 scheduled, 0 refused`.
    static func returned(_ detail: String?) -> String {
        let scheduled = detail.flatMap { Int($0.prefix { $0.isNumber }) }
        switch scheduled {
        case 0: return "no downloads returned"
        case 1: return "1 download returned"
        case let count?: return "\(count) downloads returned"
        case nil: return detail ?? "answered"
        }
    }

    // MARK: - Spans and moments

    private mutating func openSpan(
        _ kind: ActivityRow.Kind, key: String, at entry: TraceEntry, label: String, detail: String,
        style: ActivityRow.Span.Style = .main
    ) {
        closeSpan(kind, key: key, at: entry.time, detail: nil)
        var row = rows[kind] ?? ActivityRow(kind: kind)
        row.spans.append(.init(start: entry.time, end: entry.time, label: label, detail: detail, style: style))
        open[kind, default: [:]][key] = row.spans.count - 1
        rows[kind] = row
    }

    private mutating func closeSpan(_ kind: ActivityRow.Kind, key: String, at time: Date, detail: String?) {
        guard let index = open[kind]?[key] else { return }
        open[kind]?[key] = nil
        rows[kind]?.spans[index].end = time
        if let detail, !detail.isEmpty { rows[kind]?.spans[index].detail += "; \(detail)" }
    }

    private mutating func update(_ kind: ActivityRow.Kind, key: String, _ change: (inout ActivityRow.Span) -> Void) {
        guard let index = open[kind]?[key], var row = rows[kind] else { return }
        change(&row.spans[index])
        rows[kind] = row
    }

    private mutating func moment(_ kind: ActivityRow.Kind, at entry: TraceEntry, _ label: String,
                                 _ style: ActivityRow.Moment.Style = .tick) {
        rows[kind, default: ActivityRow(kind: kind)].moments.append(.init(time: entry.time, label: label, style: style))
    }

    private mutating func closeInstall(of app: String, at entry: TraceEntry) {
        guard let index = open[.install]?[app] else { return }
        let start = rows[.install]?.spans[index].start ?? entry.time
        closeSpan(.install, key: app, at: entry.time, detail: entry.detail)
        defer {
            essentialStart[app] = nil
            essentialEnd[app] = nil
        }
        // The essential phase: from the extension's downloads being scheduled to the last essential end.
        guard let from = essentialStart[app], let to = essentialEnd[app], from >= start, to > from else { return }
        rows[.install]?.spans.append(.init(
            start: from, end: to, label: "essential downloads", detail: app, style: .emphasis))
    }

    private mutating func closeApp(pid: String?, at time: Date, detail: String?) {
        // Without a pid (a trace from before disconnections named one), the oldest open app ends; a pid
        // already ended ends nothing else.
        let key = pid.map { open[.app]?[$0] != nil ? $0 : nil } ?? open[.app]?.min { $0.value < $1.value }?.key
        guard let key else { return }
        closeSpan(.app, key: key, at: time, detail: detail)
    }

    private mutating func closeControl(of app: String, heldBy holder: String, at time: Date) {
        guard let index = open[.exclusiveControl]?[app],
              rows[.exclusiveControl]?.spans[index].label == "held by the \(holder)"
        else { return }
        closeSpan(.exclusiveControl, key: app, at: time, detail: nil)
    }
}
