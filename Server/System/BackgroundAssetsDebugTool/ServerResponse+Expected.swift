/*
Abstract:
Takes the value a subcommand expects out of the service's answer, or says plainly that the two builds differ.
*/

import BackgroundAssetsIPC

extension ServerResponse {
    /// The app an `install`, `uninstall`, `simulate` or `awaitLaunchable` request is answered with.
    /// - Parameter request: The request's name, for the error message.
    /// - Returns: The app.
    /// - Throws: ``DebugToolError`` when the service answered with something else.
    func expectedApp(answering request: String) throws(DebugToolError) -> AppStatus {
        guard case let .app(app) = self else { throw Self.mismatch(request, answer: self) }
        return app
    }

    /// The settings an `updateSettings` request is answered with.
    /// - Returns: The device settings.
    /// - Throws: ``DebugToolError`` when the service answered with something else.
    func expectedSettings() throws(DebugToolError) -> DeviceSettings {
        guard case let .settings(settings) = self else { throw Self.mismatch("updateSettings", answer: self) }
        return settings
    }

    /// The status a `fetchStatus` request is answered with.
    /// - Returns: The service's status.
    /// - Throws: ``DebugToolError`` when the service answered with something else.
    func expectedStatus() throws(DebugToolError) -> ServiceStatus {
        guard case let .status(status) = self else { throw Self.mismatch("fetchStatus", answer: self) }
        return status
    }

    /// The page a `fetchDownloadStatuses` request is answered with.
    /// - Returns: The page of downloads.
    /// - Throws: ``DebugToolError`` when the service answered with something else.
    func expectedDownloadStatuses() throws(DebugToolError) -> DownloadStatusPage {
        guard case let .downloadStatuses(page) = self else { throw Self.mismatch("fetchDownloadStatuses", answer: self) }
        return page
    }

    private static func mismatch(_ request: String, answer: ServerResponse) -> DebugToolError {
        DebugToolError("The service answered \(request) with \(answer), which this tool does not expect; "
            + "rebuild the tool and the service from the same sources.")
    }
}
