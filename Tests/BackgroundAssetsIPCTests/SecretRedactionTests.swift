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
}
