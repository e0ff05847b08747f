/*
Abstract:
Pins SplitMix64's sequence and FNV-1a's values: the asset server's catalogs and replayed test runs depend on every bit of it.
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

    @Test("FNV-1a gives the published values, so the seeds made from names are the same everywhere")
    func fnv1a() {
        #expect(FNV1a.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash("a") == 0xaf63_dc4c_8601_ec8c)
    }
}
