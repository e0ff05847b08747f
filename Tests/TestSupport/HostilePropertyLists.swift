/*
Abstract:
Property lists that once crashed Foundation on Linux, for the tests of every reader that must refuse them.
*/

import Foundation

/// Hostile property lists shared by the tests of the readers that refuse them.
public enum HostilePropertyLists {
    /// `{"a": {"b"}}` as a binary property list: a dictionary whose one value is a set of one string.
    /// `Tests/Fuzz` found that Foundation on Linux crashes with SIGSEGV reading any set in a binary
    /// plist (its `info-plist` and `resume-data` targets).
    public static let dictionaryWithSet = Data([
        0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30,  // bplist00
        0xD1, 0x01, 0x02, 0x51, 0x61, 0xC1, 0x03, 0x51, 0x62,  // {1: 2}, "a", set {3}, "b"
        0x08, 0x0B, 0x0D, 0x0F,  // offset table
        0, 0, 0, 0, 0, 0, 1, 1,  // unused, offset size, reference size
        0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11,  // 4 objects, top 0, table at 17
    ])
}
