/*
Abstract:
A small SVG writer: elements with escaped attributes and text, numbers short enough to keep the file small.
*/

import Foundation

/// Builds an SVG document as text, one element at a time.
///
/// Attribute values and text are escaped, so a download identifier or an error message from the
/// trace can never break the document.
struct SVGDocument {
    private(set) var body = ""

    /// Adds an empty element, such as a `rect`.
    mutating func element(_ name: String, _ attributes: [(String, String)], title: String? = nil) {
        guard let title else {
            body += "<\(name)\(Self.attributes(attributes))/>\n"
            return
        }
        body += "<\(name)\(Self.attributes(attributes))><title>\(Self.escape(title))</title></\(name)>\n"
    }

    /// Adds an element with text inside, such as a `text`.
    mutating func text(_ content: String, _ attributes: [(String, String)]) {
        body += "<text\(Self.attributes(attributes))>\(Self.escape(content))</text>\n"
    }

    /// Opens a group; close it with ``close(_:)``.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        body += "<\(name)\(Self.attributes(attributes))>\n"
    }

    /// Closes the element opened last with that name.
    mutating func close(_ name: String) {
        body += "</\(name)>\n"
    }

    /// Adds a title to the element opened last, shown as its tooltip.
    mutating func title(_ content: String) {
        body += "<title>\(Self.escape(content))</title>\n"
    }

    /// Adds markup as it is; only for fixed text written in this file's callers.
    mutating func raw(_ markup: String) {
        body += markup
    }

    /// The whole document: these elements drawn over the ones of `underneath`.
    /// - Parameters:
    ///   - underneath: Elements drawn first, such as a grid.
    ///   - width: Its width in pixels.
    ///   - height: Its height in pixels.
    ///   - style: A style sheet for its classes.
    /// - Returns: A standalone SVG file.
    func document(over underneath: SVGDocument = SVGDocument(), width: Double, height: Double, style: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
        viewBox="0 0 \(Self.number(width)) \(Self.number(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
        <style>\(style)</style>
        <rect width="100%" height="100%" fill="#FFFFFF"/>
        \(underneath.body)\(body)</svg>

        """
    }

    /// A number with at most one decimal, the precision a pixel needs.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// Text safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            // XML 1.0 allows no control characters other than tab, newline and return.
            case _ where character.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(character.value): escaped += " "
            case _ where (0xFFFE...0xFFFF).contains(character.value): escaped += " "
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }
}
