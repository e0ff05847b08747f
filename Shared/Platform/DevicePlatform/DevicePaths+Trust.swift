/*
Abstract:
Where a device keeps the CA certificates it trusts beyond the machine's own store.
*/

import Foundation

extension DevicePaths {
    /// `system/trust/`: the CA certificates this device trusts, one PEM file each, like
    /// configuration profiles installed on a device. The service, the app and the extension
    /// trust them; the machine running the device does not.
    public var trustDirectory: URL { systemDirectory.appending(path: "trust", directoryHint: .isDirectory) }
}
