/*
Abstract:
Answers one parsed request: method and path checks, fault knobs, authentication, then the file itself.
*/

import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime

extension Connection {
    /// Answers `request` and logs the response once it is complete or cut.
    func respond(to request: HTTPRequestHead) -> Disposition {
        let keepAlive = request.wantsKeepAlive && !context.isStopping
        let latency = context.configuration.faults.latency.nanoseconds
        if latency > 0 {
            MonotonicClock.sleep(nanoseconds: latency) { context.isForcedToStop }
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return respond(to: request, withStatus: 405, keepAlive: keepAlive, fields: [("Allow", "GET, HEAD")])
        }
        let path: String
        do {
            path = try RequestPath.decode(request.target)
        } catch {
            return respond(to: request, withStatus: 400, keepAlive: false)
        }
        if let status = context.faults.injectedStatus(for: path) {
            let retry: [(String, String)] = status == 503 || status == 429 ? [("Retry-After", "1")] : []
            return respond(to: request, withStatus: status, keepAlive: keepAlive, fields: retry)
        }
        if isProtected(path), !isAuthorized(request) {
            return challenge(request, keepAlive: keepAlive)
        }
        let file: OpenedFile
        do {
            file = try context.resolver.openFile(path)
        } catch {
            return respond(to: request, withStatus: error == .forbidden ? 403 : 404, keepAlive: keepAlive)
        }
        // Checked again on the real path, so a symlink elsewhere in the catalog cannot expose a protected file;
        // a file whose real path cannot be told counts as protected.
        if context.configuration.faults.credentials != nil, !isAuthorized(request),
           context.resolver.realRelativePath(of: file).map(isProtected) ?? true {
            return challenge(request, keepAlive: keepAlive)
        }
        return respond(to: request, path: path, file: file, keepAlive: keepAlive)
    }

    private func isProtected(_ path: String) -> Bool {
        context.configuration.faults.credentials != nil && path.hasPrefix("/protected/")
    }

    private func isAuthorized(_ request: HTTPRequestHead) -> Bool {
        context.configuration.faults.credentials?.accepts(
            authorization: request.headers.singleValue(for: "authorization")) ?? true
    }

    private func challenge(_ request: HTTPRequestHead, keepAlive: Bool) -> Disposition {
        respond(to: request, withStatus: 401, keepAlive: keepAlive,
                fields: [("WWW-Authenticate", "Basic realm=\"asset-server\"")])
    }

    /// Sends a short plain-text response for `status`.
    func respond(to request: HTTPRequestHead, withStatus status: Int, keepAlive: Bool,
                 fields: [(String, String)] = []) -> Disposition {
        var head = commonHead(status: status, request: request, keepAlive: keepAlive)
        for (name, value) in fields { head.add(name, value) }
        let body = Array("\(status) \(HTTPResponseHead.reasonPhrase(for: status))\n".utf8)
        head.add("Content-Type", "text/plain; charset=utf-8")
        head.add("Content-Length", String(body.count))
        var bytes = head.serialized()
        if request.method != "HEAD" { bytes += body }
        var sent: Int64 = 0
        let sentAll = (try? stream.send(bytes, stallTimeout: context.sendStallTimeout, sent: &sent)) != nil
        log(request, status: status, bytes: request.method == "HEAD" ? 0 : max(0, sent - Int64(bytes.count - body.count)))
        guard sentAll else { return .abort }
        return keepAlive ? .keepAlive : .close
    }

    /// The fields every response carries.
    func commonHead(status: Int, request: HTTPRequestHead, keepAlive: Bool) -> HTTPResponseHead {
        var head = HTTPResponseHead(status: status)
        head.fields.reserveCapacity(10)  // every field a response can carry, so adding them never reallocates
        head.add("Date", dateField.now())
        head.add("Server", "asset-server")
        if !keepAlive {
            head.add("Connection", "close")
        } else if request.minorVersion == 0 {
            head.add("Connection", "keep-alive")
        }
        return head
    }

    func log(_ request: HTTPRequestHead, status: Int, bytes: Int64) {
        context.logger.debug("\(request.method) \(request.pathForLog) answered \(status) with \(bytes) body bytes.")
        guard let accessLog = context.accessLog else { return }
        accessLog.append(AccessLogEntry(method: request.method, path: request.pathForLog,
                                        range: request.headers.singleValue(for: "range"), status: status, bytes: bytes))
    }
}
