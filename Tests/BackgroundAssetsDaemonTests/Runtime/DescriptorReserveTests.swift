/*
Abstract:
Tests of the descriptors the service keeps below its limit: which numbers a client or a transfer may take, and the probe of the next free one.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("The descriptors the service keeps")
struct DescriptorReserveTests {
    @Test("Sixteen are kept under a limit of 64 or more, a quarter of a smaller one")
    func reservedUnderALimit() {
        #expect(DescriptorReserve.reserved(under: 1_024) == 16)
        #expect(DescriptorReserve.reserved(under: 64) == 16)
        #expect(DescriptorReserve.reserved(under: 40) == 10)
        #expect(DescriptorReserve.reserved(under: 3) == 0)
        #expect(DescriptorReserve.reserved(under: Int.max) == 16)
    }

    @Test("A client's descriptor numbered within the reserve is refused; one below it is not")
    func clientsBelowTheReserve() {
        #expect(!DescriptorReserve.isReserved(47, limit: 64))
        #expect(DescriptorReserve.isReserved(48, limit: 64))
        #expect(DescriptorReserve.isReserved(63, limit: 64))
        #expect(!DescriptorReserve.isReserved(Int32.max, limit: Int.max))
    }

    @Test("A transfer starts only when its socket and its file both fall below the reserve")
    func transfersBelowTheReserve() {
        let nothingOpen: (Int) -> Bool = { _ in false }
        let perTransfer = DescriptorReserve.descriptorsPerTransfer
        // Under 64, 48 to 63 are kept: a transfer handed 46 and 47 fits, one handed 47 and 48 does not.
        #expect(DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 46, limit: 64, isOpen: nothingOpen))
        #expect(!DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 47, limit: 64, isOpen: nothingOpen))
        #expect(!DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 63, limit: 64, isOpen: nothingOpen))
        #expect(DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 5, limit: Int.max, isOpen: nothingOpen))
    }

    @Test("Numbers still in use above the lowest free one are skipped: the next opens get the numbers after them")
    func numbersInUseAboveAGap() {
        let perTransfer = DescriptorReserve.descriptorsPerTransfer
        // 40 was freed (a transfer's socket, closed first), 41 to 46 are in use: a transfer would
        // get 40 and 47, which fits under 64; with 47 in use too it would get 48, a kept one.
        #expect(DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 40, limit: 64) { (41...46).contains($0) })
        #expect(!DescriptorReserve.hasRoom(for: perTransfer, lowestFree: 40, limit: 64) { (41...47).contains($0) })
        // Two transfers need four numbers: 40, 47 and then two more below 48 that are not there.
        #expect(!DescriptorReserve.hasRoom(for: 2 * perTransfer, lowestFree: 40, limit: 64) { (41...46).contains($0) })
    }

    @Test("The probe names the number the kernel hands out next, and leaves it free")
    func probeOfTheNextDescriptor() throws {
        let probed = try #require(DescriptorReserve.lowestFreeDescriptor())
        // Tests on other threads open and close descriptors too: the probe is judged against an
        // open made right after it, which gets the same number unless one of them took it first.
        let opened = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(opened) }
        #expect(opened >= 0)
        #expect(Int(opened) <= probed || fcntl(Int32(probed), F_GETFD) != -1, "the probed number \(probed) was left open")
        #expect(DescriptorReserve.limit() > 0)
    }
    @Test("A window of numbers looked at with one poll says which are open, window after window")
    func openDescriptorWindow() throws {
        // Numbers far above those any open(2) of this process gets (always the lowest free one), so
        // no other test can take the freed number while the window looks at it.
        let source = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(source >= 0)
        let base = Int32(min(DescriptorReserve.limit(), 4_096) - 64)
        let held = (0..<6).map { _ in fcntl(source, F_DUPFD_CLOEXEC, base) }
        close(source)
        try #require(held.allSatisfy { $0 >= base })
        // The third is closed again: a gap among numbers in use, as a transfer's closed socket leaves.
        let freed = held[2]
        close(freed)
        let kept = held.filter { $0 != freed }
        defer { for descriptor in kept { close(descriptor) } }
        // A window of two makes the look at the highest number a third or later window.
        var window = OpenDescriptorWindow(size: 2)
        let lowest = Int(try #require(kept.min()))
        for number in lowest...Int(try #require(kept.max())) {
            let isOpen = window.isOpen(number)
            if kept.contains(Int32(number)) {
                #expect(isOpen, "\(number) is held open")
            } else if number == Int(freed) {
                #expect(!isOpen, "\(number) was closed")
            }
        }
        var beyondAnyLimit = OpenDescriptorWindow(size: 4)
        let farNumberIsOpen = beyondAnyLimit.isOpen(Int(Int32.max) - 8)
        #expect(!farNumberIsOpen)
    }
}
