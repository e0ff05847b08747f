/*
Abstract:
Tests that credentials in headers and tokens in URL queries are redacted before they are shown.
*/

import BackgroundAssetsIPC
import Testing

@Suite("Redacting secrets")
struct SecretRedactionTests {
    @Test("Authorization, Proxy-Authorization and Cookie values are redacted, other fields kept")
    func headers() {
        let shown = SecretRedaction.redacting(headers: [
            "Authorization": "Bearer s3cret", "proxy-authorization": "Basic eA==", "Cookie": "id=1", "Accept-Language": "fr",
        ])
        #expect(shown == [
            "Authorization": "<redacted>", "proxy-authorization": "<redacted>", "Cookie": "<redacted>", "Accept-Language": "fr",
        ])
    }

    @Test("Token-like query values are redacted in any text, the rest of the URL kept")
    func queries() {
        let text = "http://cdn.example/a.mp4?token=abc&size=10&X-Amz-Signature=f00 answered 503"
        #expect(SecretRedaction.redacting(text: text)
            == "http://cdn.example/a.mp4?token=<redacted>&size=10&X-Amz-Signature=<redacted> answered 503")
        #expect(SecretRedaction.redacting(text: "Is it done? Yes.") == "Is it done? Yes.")
    }

    @Test("A trace line's bytes are redacted as its text would be, and kept as they are without a query")
    func traceLines() {
        let secret = Array(#"{"detail":"http://cdn.example/a.mp4?token=abc","event":"manifest"}"#.utf8)
        #expect(SecretRedaction.redacting(utf8: secret)
            == Array(#"{"detail":"http://cdn.example/a.mp4?token=<redacted>","event":"manifest"}"#.utf8))
        let plain = Array(#"{"detail":"http://cdn.example/a.mp4","event":"downloadDidBegin","size":"Größe"}"#.utf8)
        #expect(SecretRedaction.redacting(utf8: plain) == plain)
    }
}
