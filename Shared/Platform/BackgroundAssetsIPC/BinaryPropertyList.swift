/*
Abstract:
Refuses binary property lists that Foundation on Linux cannot read without crashing: those holding a set.
*/

/// A check to run on a property list from outside before `PropertyListSerialization` reads it.
///
/// Foundation on Linux (swift-corelibs-foundation, Swift 6.3) faults with SIGSEGV while it bridges a
/// binary property list's set (object marker `0xC_`) to Swift: one set in 400 bytes of resume data or of
/// an Info.plist took the whole process down, where it should have been an error. XML and OpenStep
/// property lists have no sets, and neither an Info.plist nor resume data uses one, so a binary
/// property list with a set, or with an object table this check cannot walk (which Foundation refuses
/// too), is refused before Foundation sees it. Found by `Tests/Fuzz` (`resume-data`).
public enum BinaryPropertyList {
    /// Why the data must not reach `PropertyListSerialization`, or `nil` when it may.
    /// - Parameter data: A property list in any format; only binary ones (`bplist`) are examined.
    /// - Returns: A phrase such as "holds a set, which this system does not read", or `nil`.
    public static func problem(in data: some Collection<UInt8>) -> String? {
        let bytes = Array(data)
        guard bytes.starts(with: "bplist".utf8) else { return nil }
        // The last 32 bytes: 6 unused, the size of an offset, the size of a reference, then the number
        // of objects, the top object and where the offset table starts, as 8-byte big-endian integers.
        let headerSize = 8, trailerSize = 32
        guard bytes.count >= headerSize + trailerSize else { return "is a binary property list too short to read" }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize),
              let count = integer(bytes, at: trailer + 8, size: 8),
              let table = integer(bytes, at: trailer + 24, size: 8),
              table >= headerSize, table <= trailer, count <= (trailer - table) / offsetSize else {
            return "is a binary property list whose object table is outside the file"
        }
        for index in 0..<count {
            guard let offset = integer(bytes, at: table + index * offsetSize, size: offsetSize),
                  offset >= headerSize, offset < trailer else {
                return "is a binary property list whose object \(index) is outside the file"
            }
            if bytes[offset] >> 4 == 0xC { return "holds a set (object \(index)), which this system does not read" }
        }
        return nil
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, if it is inside `bytes` and fits an `Int`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] {
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
