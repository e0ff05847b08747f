/*
Abstract:
An SVG drawn by a real renderer (librsvg's rsvg-convert), read back as pixels a test can check.
*/

import Foundation

/// The pixels of an SVG as librsvg draws it: `rsvg-convert` makes a PNG, and netpbm's `pngtopnm`
/// turns that into a PPM, whose header and RGB bytes are read here.
///
/// Both come from Debian's packages `librsvg2-bin` and `netpbm`, which `.ci/run` installs.
public struct RenderedImage: Sendable {
    /// The image's size in pixels.
    public let width: Int
    public let height: Int
    /// Red, green and blue of every pixel, row by row.
    private let pixels: [UInt8]

    /// One pixel's colour.
    public struct Colour: Sendable, Equatable, CustomStringConvertible {
        public var red: Int
        public var green: Int
        public var blue: Int

        /// Whether it is white or nearly (the page, or a faint stripe).
        public var isNearlyWhite: Bool { red > 225 && green > 225 && blue > 225 }

        /// How far apart two colours are, the largest difference of a channel.
        public func distance(to other: Colour) -> Int {
            max(abs(red - other.red), abs(green - other.green), abs(blue - other.blue))
        }

        /// A colour written `#RRGGBB`.
        public init?(hex: String) {
            let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
            guard digits.count == 6, let value = Int(digits, radix: 16) else { return nil }
            (red, green, blue) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        }

        init(red: Int, green: Int, blue: Int) {
            (self.red, self.green, self.blue) = (red, green, blue)
        }

        public var description: String { "rgb(\(red), \(green), \(blue))" }
    }

    /// The tools the rendering needs, and the Debian packages they come in.
    public static let tools = [("rsvg-convert", "librsvg2-bin"), ("pngtopnm", "netpbm")]

    /// Whether both tools are installed.
    public static var isAvailable: Bool {
        tools.allSatisfy { (try? locateExecutable($0.0)) != nil }
    }

    /// Draws an SVG file.
    /// - Parameter svg: The file.
    /// - Throws: `TestSupportError` naming a missing tool and its package, or the tool's message.
    public init(rendering svg: URL) async throws {
        for (tool, package) in Self.tools where (try? locateExecutable(tool)) == nil {
            throw TestSupportError("\(tool) is not installed; install it with apt-get install \(package) (.ci/run does).")
        }
        let png = svg.deletingPathExtension().appendingPathExtension("png")
        let drawn = try await runCommand("rsvg-convert", arguments: ["--output", png.path, svg.path])
        guard drawn.status == .exited(0) else {
            throw TestSupportError("rsvg-convert could not draw \(svg.path): \(drawn.standardError)")
        }
        let ppm = svg.deletingPathExtension().appendingPathExtension("ppm")
        let shell = try await runCommand("sh", arguments: ["-c", "pngtopnm \"$0\" > \"$1\"", png.path, ppm.path])
        guard shell.status == .exited(0), let data = FileManager.default.contents(atPath: ppm.path) else {
            throw TestSupportError("pngtopnm could not read \(png.path): \(shell.standardError)")
        }
        try self.init(ppm: [UInt8](data))
    }

    /// Reads a binary PPM (`P6`, 8 bits per channel).
    init(ppm bytes: [UInt8]) throws {
        var index = 0
        func token() -> String {
            // Whitespace and comments separate the header's four fields.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if [9, 10, 13, 32].contains(bytes[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count, ![9, 10, 13, 32].contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let magic = token()
        guard magic == "P6", let width = Int(token()), let height = Int(token()), token() == "255" else {
            throw TestSupportError("Not an 8-bit binary PPM (its header starts \(magic.debugDescription)).")
        }
        index += 1
        guard width > 0, height > 0, bytes.count - index >= width * height * 3 else {
            throw TestSupportError("The PPM is \(width)x\(height) but holds \(bytes.count - index) bytes of pixels.")
        }
        self.width = width
        self.height = height
        pixels = Array(bytes[index..<(index + width * height * 3)])
    }

    /// The colour at a point, or `nil` outside the image.
    public func colour(x: Int, y: Int) -> Colour? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let offset = (y * width + x) * 3
        return Colour(red: Int(pixels[offset]), green: Int(pixels[offset + 1]), blue: Int(pixels[offset + 2]))
    }
}
