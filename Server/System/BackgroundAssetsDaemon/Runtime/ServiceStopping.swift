/*
Abstract:
The refusal of a launch that would start after the service began to stop.
*/

/// A process the service was about to launch while it stops: launching it would leave it running
/// after the service, with nobody to end it.
struct ServiceStopping: Error, CustomStringConvertible {
    /// What was to be launched.
    var launch: String

    var description: String {
        "The service is stopping, so it did not launch \(launch)."
    }
}
