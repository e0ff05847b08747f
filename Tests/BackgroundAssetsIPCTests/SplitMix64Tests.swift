/*
Abstract:
Pins SplitMix64's sequence: the asset server's catalogs and replayed test runs depend on every bit of it.
*/

import BackgroundAssetsIPC
import Testing

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("Seed 0 gives the published sequence, so every machine generates the same catalog")
    func publishedSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("Equal seeds give equal choices, and other seeds other ones")
    func seededChoices() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        let choices = (0..<8).map { _ in Int.random(in: 0..<1000, using: &first) }
        #expect(choices == (0..<8).map { _ in Int.random(in: 0..<1000, using: &second) })
        #expect(choices != (0..<8).map { _ in Int.random(in: 0..<1000, using: &other) })
    }
}
