/*
Abstract:
Tests for capping the C library's heap arenas, as the service does at its start.
*/

import ServerRuntime
import Testing

@Suite("Heap arenas")
struct HeapArenasTests {
    @Test("The C library takes the cap on its heap arenas that the service sets at its start")
    func capIsTaken() {
        #if canImport(Glibc)
        // Found by name, so a missing symbol or a refused option shows here rather than as memory.
        #expect(HeapArenas.limit(to: 2))
        #else
        #expect(!HeapArenas.limit(to: 2))
        #endif
    }
}
