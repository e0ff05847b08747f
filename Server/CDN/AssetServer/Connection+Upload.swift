/*
Abstract:
Answers `PUT` and `POST` to `/uploads/NAME`: checks the name and the size, reads the body into the uploads folder, says what was stored.
*/

import AssetPackFormat
import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime

/// Which requests are uploads.
enum Upload {
    /// The path prefix uploads go to.
    static let pathPrefix = "/\(UploadFolder.folderName)/"

    /// Whether the request sends a body to the uploads folder, so its body is read, not discarded.
    static func isUpload(_ head: HTTPRequestHead) -> Bool {
        (head.method == "PUT" || head.method == "POST") && head.target.hasPrefix(pathPrefix)
    }
}

extension Connection {
    /// Stores an upload and answers `201 Created` with its name, size and SHA-256 as JSON; a bad name
    /// gets `400` and a body over the limit `413`, both before any byte of the body is read, and the
    /// connection closes, since the body is left unread.
    func receiveUpload(_ request: HTTPRequestHead) -> Disposition {
        let keepAlive = request.wantsKeepAlive && !context.isStopping
        // --latency delays uploads too: the client has sent its body, and waits for the answer.
        let latency = context.configuration.faults.latency.nanoseconds
        if latency > 0 {
            MonotonicClock.sleep(nanoseconds: latency) { context.isForcedToStop }
        }
        let name: String
        do {
            let path = try RequestPath.decode(request.target)
            name = String(path.dropFirst(Upload.pathPrefix.count))
        } catch {
            return respond(to: request, withStatus: 400, keepAlive: false)
        }
        guard UploadFolder.isAcceptable(name: name) else {
            context.logger.info("Refused an upload named \(JSONValue.quoted(name)): a name is one path component of letters, digits, '.', '_' and '-'.")
            return respond(to: request, withStatus: 400, keepAlive: false)
        }
        let limit = context.configuration.limits.maximumUploadBytes
        guard request.contentLength <= limit else {
            context.logger.info("Refused the upload \(name): \(request.contentLength) bytes is over the limit of \(limit).")
            return respond(to: request, withStatus: 413, keepAlive: false)
        }
        if request.headers.singleValue(for: "expect")?.lowercased() == "100-continue" {
            var sent: Int64 = 0
            guard (try? stream.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), stallTimeout: context.sendStallTimeout,
                                    sent: &sent)) != nil else { return .abort }
        }
        let deadline = { self.context.clock.now() &+ self.context.requestHeadTimeout }
        let stored: UploadFolder.Stored
        do {
            stored = try UploadFolder(catalogDirectory: context.configuration.catalogDirectory)
                .store(name: name, length: request.contentLength) { receiveBodyBytes(into: $0, deadline: deadline()) }
        } catch {
            switch error {
            case .bodyCut:
                context.logger.info("The upload \(name) ended before its \(request.contentLength) bytes; nothing was stored.")
                log(request, status: 400, bytes: 0)
                return .abort
            case let .storage(reason):
                context.logger.error("The upload \(name) was not stored: \(reason).")
                return respond(to: request, withStatus: 500, keepAlive: false)
            }
        }
        context.logger.info("Stored the upload \(name): \(stored.bytes) bytes, SHA-256 \(stored.sha256).")
        let body = Array(#"{"name":\#(JSONValue.quoted(name)),"size":\#(stored.bytes),"sha256":"\#(stored.sha256)"}"#.utf8) + [0x0A]
        var head = commonHead(status: 201, request: request, keepAlive: keepAlive)
        head.add("Content-Type", "application/json")
        head.add("Content-Length", String(body.count))
        head.add("Location", Upload.pathPrefix + name)
        var sent: Int64 = 0
        let sentAll = (try? stream.send(head.serialized() + body, stallTimeout: context.sendStallTimeout, sent: &sent)) != nil
        log(request, status: 201, bytes: Int64(body.count))
        guard sentAll else { return .abort }
        return keepAlive ? .keepAlive : .close
    }
}
