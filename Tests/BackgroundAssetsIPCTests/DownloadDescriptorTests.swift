/*
Abstract:
Tests of the rules the service applies to every download a client sends.
*/

import BackgroundAssetsIPC
import Testing

@Suite("Download descriptors")
struct DownloadDescriptorTests {
    @Test("Wire states keep Apple's raw values and know which ones are final")
    func states() {
        #expect(DownloadDescriptor.State.allCases.map(\.rawValue) == [-1, 0, 1, 2, 3])
        #expect(DownloadDescriptor.State.allCases.filter(\.isTerminal) == [.failed, .finished])
    }

    @Test("Loopback hosts are recognised, look-alikes are not")
    func loopback() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]"] {
            #expect(DownloadDescriptor.isLoopback(host: host), "\(host)")
        }
        for host in ["localhost.example.com", "127.0.0.1.nip.io", "128.0.0.1", "127.0.0.256", "0.0.0.0", "example.com"]
        {
            #expect(!DownloadDescriptor.isLoopback(host: host), "\(host)")
        }
    }

    @Test("Only https, or http on loopback, is accepted")
    func urls() {
        #expect(DownloadDescriptor.urlProblem("https://cdn.example.com/a") == nil)
        #expect(DownloadDescriptor.urlProblem("http://127.0.0.1:9/a") == nil)
        #expect(DownloadDescriptor.urlProblem("http://cdn.example.com/a")?.contains("not loopback") == true)
        #expect(DownloadDescriptor.urlProblem("https://")?.contains("not an absolute URL") == true)
        #expect(DownloadDescriptor.urlProblem("relative/path") != nil)
        #expect(DownloadDescriptor.urlProblem("javascript:alert(1)") != nil)
    }

    @Test("A traversal-looking identifier is only a string, but an app group must be a safe folder name")
    func hostileNames() {
        var descriptor = SampleMessages.descriptor(identifier: "../../x")
        #expect(descriptor.validationProblem() == nil, "identifiers never become paths")
        descriptor.applicationGroupIdentifier = "../containers"
        #expect(descriptor.validationProblem()?.contains("app group") == true)
        descriptor = SampleMessages.descriptor(identifier: String(repeating: "x", count: 4096))
        #expect(descriptor.validationProblem()?.contains("4096 bytes") == true)
        descriptor = SampleMessages.descriptor(identifier: "nul\0inside")
        #expect(descriptor.validationProblem()?.contains("NUL") == true)
    }

    @Test("Essential downloads need a size")
    func essentialSize() {
        var descriptor = SampleMessages.descriptor()
        descriptor.fileSize = 0
        #expect(descriptor.validationProblem()?.contains("essential") == true)
        descriptor.isEssential = false
        #expect(descriptor.validationProblem() == nil)
    }
}
