/*
Abstract:
Tests that the plain-URL reading of every download's check agrees with URLComponents wherever it answers.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Plain web URLs")
struct PlainWebURLTests {
    /// What `URLComponents` makes of `string`: its scheme, lowercased, and its host, or `nil`.
    static func components(_ string: String) -> (scheme: String, host: String)? {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else { return nil }
        return (scheme, host)
    }

    /// Checks that a plain reading, when there is one, is what `URLComponents` reads.
    static func expectAgreement(_ string: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let plain = PlainWebURL(string) else { return }
        let parsed = components(string)
        #expect(parsed?.scheme == plain.scheme, "\(string.debugDescription)", sourceLocation: sourceLocation)
        #expect(parsed?.host == plain.host, "\(string.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("The URLs of downloads are read without URLComponents, as it reads them")
    func usualURLs() {
        let usual = [
            "http://127.0.0.1:37361/sessions/wwdc2023-10001.mp4", "https://cdn.example.com/a/b?c=d#e",
            "HTTPS://CDN.EXAMPLE.COM/A", "hTTp://LocalHost/x", "http://localhost", "https://a-b.c/%41%2f",
            "https://x.y/~a_b.c!$&'()*+,;=:@/?q#f?/", "https://example.com:65535", "http://127.0.0.1:0/",
            "https://1.2.3.4/a", "https://-a/", "https://a-/", "https://a..b/", "https://./", "https://a./",
            "https://.a/", "http://0/", "http://127.0.0.256/", "https://" + String(repeating: "x", count: 255) + "/a",
            "https://a/" + String(repeating: "p", count: 4000),
        ]
        for string in usual {
            #expect(PlainWebURL(string) != nil, "\(string) goes through URLComponents")
            Self.expectAgreement(string)
        }
        #expect(PlainWebURL("HTTPS://CDN.EXAMPLE.COM/A")?.host == "CDN.EXAMPLE.COM")
        #expect(PlainWebURL("http://127.0.0.1:9/a")?.scheme == "http")
        #expect(PlainWebURL("hTTpS://a/")?.scheme == "https")
    }

    @Test("Anything less plain is left to URLComponents")
    func otherURLs() {
        let others = [
            "http://[::1]/", "http://user@host/", "http://a b/", "http://a/%zz", "http://a/%4", "http://a/#b#c",
            "http://a/\"", "http://a/\u{7f}", "http:/a", "http:a", "ftp://a/", "http://a/é", "http://é/",
            "http://a:65536/", "http://a:/", "http://a:123456/", "http://a:1:2/", "http://a:+1/", "http://", "https://:80/",
            "http\u{1a}\u{0f}\u{0f}a/", "javascript:alert(1)", "relative/path", "", "http://a/\0",
            "https://xn--bcher-kva.example/", "https://a.XN--b/", "https://xn--/",
            // URLComponents gives no host past 2,048 bytes; these go to it, long before that.
            "https://" + String(repeating: "x", count: 256), "https://" + String(repeating: "x", count: 10_000),
            "https://a/" + String(repeating: "p", count: 4100),
        ]
        for string in others {
            #expect(PlainWebURL(string) == nil, "\(string.debugDescription) is read plainly")
        }
    }

    @Test("Random URLs near the plain form read as URLComponents reads them, wherever they read plainly")
    func randomURLs() {
        var random = SplitMix64(seed: 0x5EED_0F_0A11)
        let starts = ["http://", "https://", "HtTpS://", "http:/", "http:", "ftp://", ""]
        // Mostly bytes a plain URL may have, so that many read plainly, and now and then one it may not.
        let plainHost = Array("aZ09.-xn".unicodeScalars), oddHost = Array("_:[]@%é~ ".unicodeScalars)
        let plainRest = Array("aZ09/?#%2fF-._~!$&'()*+,;=:@".unicodeScalars)
        let oddRest = Array("[]\" \\^`{|}<>é\u{7f}\t".unicodeScalars)
        func pick(_ usual: [Unicode.Scalar], _ odd: [Unicode.Scalar]) -> Unicode.Scalar {
            (Int.random(in: 0..<20, using: &random) == 0 ? odd : usual).randomElement(using: &random) ?? "a"
        }
        var plain = 0
        for _ in 0..<20_000 {
            var string = starts.randomElement(using: &random) ?? ""
            for _ in 0..<Int.random(in: 0...12, using: &random) { string.unicodeScalars.append(pick(plainHost, oddHost)) }
            for _ in 0..<Int.random(in: 0...12, using: &random) { string.unicodeScalars.append(pick(plainRest, oddRest)) }
            if PlainWebURL(string) != nil { plain += 1 }
            Self.expectAgreement(string)
        }
        #expect(plain > 1_000, "too few random strings read plainly (\(plain)) for the comparison to mean much")
    }

    @Test("The check of a URL gives the same answer either way")
    func sameProblem() {
        #expect(DownloadDescriptor.urlProblem("http://cdn.example.com/a")?.contains("not loopback") == true)
        #expect(DownloadDescriptor.urlProblem("http://[::1]:9/a") == nil, "through URLComponents")
        #expect(DownloadDescriptor.urlProblem("HTTP://LOCALHOST:9/a") == nil)
        #expect(DownloadDescriptor.urlProblem("http://127.0.0.2/a") == nil)
        #expect(DownloadDescriptor.urlProblem("http://128.0.0.1/a")?.contains("not loopback") == true)
    }
}
