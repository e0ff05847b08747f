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

        /// Creates the state that matches a wire state; both use Apple's raw values.
        init(_ wire: DownloadDescriptor.State) {
            switch wire {
            case .failed: self = .failed
            case .created: self = .created
            case .waiting: self = .waiting
            case .downloading: self = .downloading
            case .finished: self = .finished
            }
        }

        /// The wire form of the state.
        var wireState: DownloadDescriptor.State {
            switch self {
            case .failed: .failed
            case .created: .created
            case .waiting: .waiting
            case .downloading: .downloading
            case .finished: .finished
            }
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
