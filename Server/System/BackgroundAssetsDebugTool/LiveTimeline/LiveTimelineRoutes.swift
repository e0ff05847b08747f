/*
Abstract:
The live timeline's two addresses, / (the page) and /timeline.svg (the picture), and the answer to any other request.
*/

/// Turns a request head into the server's answer: the page, the current picture, or an error.
struct LiveTimelineRoutes: Sendable {
    /// The path of the picture the page polls.
    static let picturePath = "/timeline.svg"

    /// The page, with the current picture inline.
    let page: @Sendable () -> String
    /// The current picture.
    let picture: @Sendable () -> String

    /// The answer to one request.
    /// - Parameter head: The request's head, through the empty line that ends it.
    /// - Returns: The page, the picture, or a 400, 403, 404 or 405 whose body says why.
    func response(toHead head: [UInt8]) -> LiveTimelineResponse {
        let request: LiveTimelineRequest
        do {
            request = try LiveTimelineRequest(head: head)
        } catch {
            return .error(error.status, error.reason, error.sentence)
        }
        guard request.isAddressedToLoopback else {
            return .error(403, "Forbidden", "this server answers only requests addressed to 127.0.0.1 or localhost.")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = LiveTimelineResponse.error(
                405, "Method Not Allowed", "this server answers only GET and HEAD, not \(request.method).")
            response.extraFields = [("Allow", "GET, HEAD")]
            return response
        }
        var response: LiveTimelineResponse
        switch request.path {
        case "/":
            response = LiveTimelineResponse(
                status: 200, reason: "OK", contentType: "text/html; charset=utf-8", body: page())
        case Self.picturePath:
            response = LiveTimelineResponse(status: 200, reason: "OK", contentType: "image/svg+xml", body: picture())
        default:
            response = .error(
                404, "Not Found", "this server has / (the live timeline) and \(Self.picturePath) (its picture).")
        }
        response.omitsBody = request.method == "HEAD"
        return response
    }

    /// The answer to a head that grew past ``LiveTimelineRequest/maximumHeadLength`` without ending.
    static let headTooLarge = LiveTimelineResponse.error(
        431, "Request Header Fields Too Large",
        "the request head is longer than \(LiveTimelineRequest.maximumHeadLength) bytes.")
}
