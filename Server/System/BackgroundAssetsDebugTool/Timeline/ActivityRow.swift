/*
Abstract:
The timeline's rows above the downloads: installs, extension runs, app launches, tasks, periodic checks, exclusive control, signposts.
*/

import Foundation

/// One row of the device's activity: stretches of time (an extension's process, an install) and moments.
struct ActivityRow: Sendable, Equatable {
    /// What a row shows, which also decides its colour.
    enum Kind: String, Sendable, CaseIterable {
        case install, `extension`, app, tasks, periodic, exclusiveControl, signposts
    }

    /// A stretch of time, such as one extension process from launch to exit.
    struct Span: Sendable, Equatable {
        /// How the span is drawn within its row.
        enum Style: String, Sendable {
            /// The row's own colour.
            case main
            /// A lighter part: an install's wait for the extension, an app launched in the background.
            case secondary
            /// A stronger part inside a main span: an install's essential phase.
            case emphasis
        }

        var start: Date
        var end: Date
        var label: String
        var detail: String
        var style: Style = .main
        /// Whether the trace ends before the span does.
        var isOpen = false
        /// Whether it ended by force: an extension killed over a limit, a task killed.
        var endedByForce = false
    }

    /// A moment: an entry point called, a periodic check, a task request submitted.
    struct Moment: Sendable, Equatable {
        enum Style: String, Sendable {
            /// A tick, for a call or a request.
            case tick
            /// A diamond, for an event that starts something (a periodic check, a simulated request).
            case trigger
            /// A cross, for something refused or lost.
            case problem
        }

        var time: Date
        var label: String
        var style: Style = .tick
    }

    let kind: Kind
    var spans: [Span] = []
    var moments: [Moment] = []

    /// The row's title, in the label column.
    var title: String {
        switch kind {
        case .install: "Install"
        case .extension: "Extension"
        case .app: "App"
        case .tasks: "Background tasks"
        case .periodic: "Periodic checks"
        case .exclusiveControl: "Exclusive control"
        case .signposts: "Signposts"
        }
    }

    /// Whether the row has anything to draw.
    var isEmpty: Bool { spans.isEmpty && moments.isEmpty }
}
