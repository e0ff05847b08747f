/*
Abstract:
The states a download moves through, with Apple's raw values.
*/

import BackgroundAssetsIPC

extension BADownload {
    /// The state of a download.
    public enum State: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// The download ended with an error.
        case failed = -1
        /// The download was created but not scheduled.
        case created = 0
        /// The download is scheduled and waits to run.
        case waiting = 1
        /// The download is in progress.
        case downloading = 2
        /// The download ended with its file.
        case finished = 3

        // The wire's state and this one are the same idea with Apple's raw values; the raw value is
        // the bridge (a test checks the two enums have the same cases and values).

        /// Creates the state that matches a wire state.
        init(_ wire: DownloadDescriptor.State) {
            self = State(rawValue: wire.rawValue) ?? .failed
        }

        /// The wire form of the state.
        var wireState: DownloadDescriptor.State {
            DownloadDescriptor.State(rawValue: rawValue) ?? .failed
        }

        /// The state's name, as in `BADownload.State.downloading`.
        public var description: String {
            switch self {
            case .failed: "failed"
            case .created: "created"
            case .waiting: "waiting"
            case .downloading: "downloading"
            case .finished: "finished"
            }
        }
    }
}
