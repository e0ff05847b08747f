/*
Abstract:
Tests of the live timeline's request handling: the page and the picture, and a clear error for everything else.
*/

@testable import BackgroundAssetsDebugTool
import BackgroundAssetsIPC
import HTTPCore
import Testing

@Suite("The live timeline answers its two addresses, and refuses everything else with a reason")
struct LiveTimelineRoutesTests {
    let routes = LiveTimelineRoutes(page: { "<!DOCTYPE html><p>page</p>" }, picture: { "<svg>picture</svg>" })

    func answer(_ head: String) -> LiveTimelineResponse {
        routes.response(toHead: Array(head.utf8))
    }

    func text(_ response: LiveTimelineResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test("/ is the page and /timeline.svg the picture, a query string ignored; HEAD gets the head alone")
    func pageAndPicture() {
        let page = answer("GET / HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n")
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        #expect(text(page).contains("<p>page</p>"))
        let picture = answer("GET /timeline.svg?at=17 HTTP/1.1\r\nHost: localhost:8123\r\nAccept: */*\r\n\r\n")
        #expect(picture.status == 200)
        #expect(picture.contentType == "image/svg+xml")
        #expect(text(picture) == "<svg>picture</svg>")
        let head = answer("HEAD /timeline.svg HTTP/1.1\nHost: [::1]:8123\n\n")
        #expect(head.status == 200)
        let wire = String(decoding: head.serialized, as: UTF8.self)
        #expect(wire.hasSuffix("\r\n\r\n") && wire.contains("Content-Length: 18\r\n"), "\(wire)")
        #expect(answer("GET / HTTP/1.0\r\n\r\n").status == 200, "HTTP/1.0 needs no Host")
    }

    @Test("Any other path is a 404 that names the two addresses")
    func otherPathsAreNotFound() {
        for path in ["/index.html", "/timeline.svg/", "/../system/trace.jsonl", "/favicon.ico"] {
            let response = answer("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(response.status == 404, "\(path)")
            #expect(text(response).contains("/timeline.svg"), "\(path)")
        }
    }

    @Test("Garbage, a bad request line, a missing Host or a bad field is a 400 with a reason")
    func malformedRequestsAreRefused() {
        let heads = [
            "\u{16}\u{03}\u{01}\u{02}\u{00}\r\n\r\n", "hello\r\n\r\n", "GET /\r\n\r\n",
            "GET / HTTP/2.0\r\nHost: a\r\n\r\n",
            "get / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "GET  / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: localhost\r\n\r\n", "GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
            "GET /caf\u{E9} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "\r\n\r\n",
        ]
        for head in heads {
            let response = answer(head)
            #expect(response.status == 400, "\(head.debugDescription)")
            #expect(text(response).hasPrefix("400 Bad Request: "), "\(head.debugDescription)")
        }
    }

    @Test("Another method is a 405 with Allow, and a host other than loopback a 403")
    func methodsAndHosts() {
        let post = answer("POST /timeline.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        #expect(post.status == 405)
        #expect(String(decoding: post.serialized, as: UTF8.self).contains("Allow: GET, HEAD\r\n"))
        // A page elsewhere that points its own name at 127.0.0.1 still sends that name.
        let rebound = answer("GET /timeline.svg HTTP/1.1\r\nHost: attacker.example:8123\r\n\r\n")
        #expect(rebound.status == 403)
    }

    @Test("Mangled requests get an answer with a reason, never a crash")
    func mangledRequestsGetAnAnswer() {
        var random = SplitMix64(seed: 20_261_205)
        let valid = Array("GET /timeline.svg HTTP/1.1\r\nHost: 127.0.0.1:8123\r\nAccept: */*\r\n\r\n".utf8)
        for _ in 0..<1_000 {
            var head = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<head.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: head[index] = UInt8.random(in: 0...255, using: &random)
                case 1: head.remove(at: index)
                default: head.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
            }
            let response = routes.response(toHead: head)
            #expect([200, 400, 403, 404, 405].contains(response.status), "\(head)")
            if response.status != 200 { #expect(text(response).hasPrefix("\(response.status) ")) }
        }
    }

    @Test("A head is complete at its empty line, with CRLF or bare LF")
    func headLength() {
        #expect(HTTPHeadEnd.length(in: Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == nil)
        #expect(HTTPHeadEnd.length(in: Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nextra".utf8)) == 27)
        #expect(HTTPHeadEnd.length(in: Array("GET / HTTP/1.1\nHost: a\n\n".utf8)) == 24)
    }
}
