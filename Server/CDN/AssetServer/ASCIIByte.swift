/*
Abstract:
ASCII case folding for the bytes of request heads, whose names and schemes are ASCII.
*/

extension UInt8 {
    /// The byte with `A` to `Z` turned into `a` to `z`; any other byte as it is.
    var asciiLowercased: UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self + 0x20 : self
    }
}
