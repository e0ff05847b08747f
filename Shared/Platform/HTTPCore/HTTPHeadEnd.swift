/*
Abstract:
Where an HTTP/1 head ends in the bytes received so far: the one scan both of the package's servers use.
*/

/// Finds the empty line that ends an HTTP/1 head, with CRLF line ends or bare LF ones.
public enum HTTPHeadEnd {
    /// The length of the head at the start of `bytes`, through the empty line that ends it, or
    /// `nil` while it is incomplete.
    ///
    /// Inlinable, so the asset server's read loop gets a version specialised for its buffer.
    /// - Parameters:
    ///   - bytes: What was received, from the head's first byte.
    ///   - start: Where to resume a search that found no end before; bytes before it are not looked at again.
    @inlinable
    public static func length<Bytes: RandomAccessCollection>(in bytes: Bytes, searchingFrom start: Int = 0) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let base = bytes.startIndex
        var offset = max(start, 1)
        while offset < bytes.count {
            if bytes[base + offset] == 0x0A {
                if bytes[base + offset - 1] == 0x0A { return offset + 1 }
                if offset >= 2, bytes[base + offset - 1] == 0x0D, bytes[base + offset - 2] == 0x0A { return offset + 1 }
            }
            offset += 1
        }
        return nil
    }
}
