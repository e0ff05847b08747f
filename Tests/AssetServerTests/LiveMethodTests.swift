/*
Abstract:
Live method handling: GET and HEAD are served, other methods get 405 with Allow, missing files 404.
*/

import Foundation
import Testing
import TestSupport

@Suite("Methods and status codes", .serialized, .timeLimit(.minutes(3)))
struct LiveMethodTests {
    @Test("Methods other than GET and HEAD answer 405 with an Allow header", arguments: ["POST", "PUT", "DELETE", "PATCH"])
    func otherMethodsAreNotAllowed(method: String) async throws {
        try await withAssetServer { server in
            let (entry, _) = try await server.firstSession()
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request(method, entry.path, body: Array("payload".utf8))
            #expect(response.statusCode == 405, "\(response)")
            let allow = try #require(response.value(forHeader: "Allow"))
            let methods = Set(allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(methods.isSuperset(of: ["GET", "HEAD"]), "Allow: \(allow)")
            #expect(!methods.contains(method))
        }
    }

    @Test("HEAD answers with the headers of GET and no body")
    func headMatchesGet() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let client = try RawHTTPClient(port: server.port)
            let head = try await client.request("HEAD", entry.path)
            let get = try await client.request("GET", entry.path)
            #expect(head.statusCode == 200)
            #expect(head.body.isEmpty)
            #expect(get.body == file)
            for name in ["Content-Length", "ETag", "Last-Modified", "Accept-Ranges", "Content-Type"] {
                #expect(head.value(forHeader: name) == get.value(forHeader: name), "\(name)")
            }
        }
    }

    @Test("A missing file or a folder answers 404 and the connection stays usable", arguments: ["/nope.mp4", "/sessions/", "/sessions"])
    func missingFileIsNotFound(path: String) async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("GET", path)
            #expect(response.statusCode == 404, "\(response)")
            #expect(try await client.request("GET", "/manifest.json").statusCode == 200)
        }
    }

    @Test("The manifest is served as JSON")
    func manifestIsJSON() async throws {
        try await withAssetServer { server in
            let response = try await server.raw("GET", "/manifest.json")
            #expect(response.statusCode == 200)
            #expect(response.value(forHeader: "Content-Type")?.hasPrefix("application/json") == true, "\(response)")
            #expect(response.body == (try server.fileBytes("/manifest.json")))
        }
    }
}
