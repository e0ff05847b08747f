/*
Abstract:
The timeline's symbols: promoted, retry, finished, failed, a trigger, a waiting line; the same in lanes and legend.
*/

import Foundation

extension TimelineSVG {
    /// Draws each symbol at a point, with an optional tooltip.
    enum Marks {
        private static func n(_ value: Double) -> String { SVGDocument.number(value) }

        /// A dashed line: queued, or waiting between two runs.
        static func waiting(_ svg: inout SVGDocument, from x0: Double, to x1: Double, y: Double, title: String? = nil) {
            guard x1 > x0 else { return }
            svg.element("line", [
                ("x1", n(x0)), ("y1", n(y)), ("x2", n(x1)), ("y2", n(y)), ("stroke", TimelineStyle.faint),
                ("stroke-width", "1.5"), ("stroke-dasharray", "3 3"),
            ], title: title)
        }

        /// An upward triangle: the app promoted the download to the foreground.
        static func promoted(_ svg: inout SVGDocument, x: Double, y: Double, title: String?) {
            svg.element("path", [
                ("d", "M\(n(x - 5)) \(n(y))L\(n(x + 5)) \(n(y))L\(n(x)) \(n(y - 8))Z"), ("fill", TimelineStyle.foreground),
                ("stroke", "#FFFFFF"), ("stroke-width", "1"),
            ], title: title)
        }

        /// A ring: the transfer stopped to be retried.
        static func retry(_ svg: inout SVGDocument, x: Double, y: Double, title: String?) {
            svg.element("circle", [
                ("cx", n(x)), ("cy", n(y)), ("r", "3.5"), ("fill", "#FFFFFF"), ("stroke", TimelineStyle.problem),
                ("stroke-width", "1.8"),
            ], title: title)
        }

        /// A check mark: the file was handed over.
        static func finished(_ svg: inout SVGDocument, x: Double, y: Double, title: String?) {
            svg.element("path", [
                ("d", "M\(n(x - 4)) \(n(y))L\(n(x - 1)) \(n(y + 3.5))L\(n(x + 5)) \(n(y - 4))"), ("fill", "none"),
                ("stroke", TimelineStyle.ink), ("stroke-width", "2"), ("stroke-linecap", "round"),
            ], title: title)
        }

        /// A cross: the download failed, or an extension was killed.
        static func failed(_ svg: inout SVGDocument, x: Double, y: Double, title: String?) {
            svg.element("path", [
                ("d", "M\(n(x - 4)) \(n(y - 4))L\(n(x + 4)) \(n(y + 4))M\(n(x - 4)) \(n(y + 4))L\(n(x + 4)) \(n(y - 4))"),
                ("stroke", TimelineStyle.problem), ("stroke-width", "2.2"), ("stroke-linecap", "round"),
            ], title: title)
        }

        /// A diamond: something set work off (a periodic check, a simulated request, an uninstall).
        static func trigger(_ svg: inout SVGDocument, x: Double, y: Double, colour: String, title: String?) {
            svg.element("path", [
                ("d", "M\(n(x)) \(n(y - 5))L\(n(x + 5)) \(n(y))L\(n(x)) \(n(y + 5))L\(n(x - 5)) \(n(y))Z"), ("fill", colour),
                ("stroke", "#FFFFFF"), ("stroke-width", "1"),
            ], title: title)
        }

        /// A short vertical line: a call or a request.
        static func tick(_ svg: inout SVGDocument, x: Double, top: Double, height: Double, colour: String, title: String?) {
            svg.element("rect", [
                ("x", n(x - 0.75)), ("y", n(top)), ("width", "1.5"), ("height", n(height)), ("fill", colour),
            ], title: title)
        }
    }
}
