/*
Abstract:
Messages that quote another error's sentence end with one full stop, not two.
*/

import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Quote an error inside a sentence")
struct ErrorClauseTests {
    @Test("A quoted error loses its full stop, keeps an ellipsis, and the tool's messages never end a clause with two")
    func noDoubledPeriods() throws {
        #expect(DebugTool.clause(DebugToolError("The file doesn’t exist.")) == "The file doesn’t exist")
        #expect(DebugTool.clause(DebugToolError("Wait...")) == "Wait...")
        let missing = URL(fileURLWithPath: "/nonexistent/ca.pem")
        #expect {
            _ = try TrustStore(directory: FileManager.default.temporaryDirectory).add(missing)
        } throws: { error in
            let message = (error as? DebugToolError)?.message ?? ""
            return message.contains(missing.path) && !message.contains("..") && message.contains(".tls/ca.pem")
        }
    }
}
