/*
Abstract:
How a transfer's failure reaches the app: as the Foundation or Background Assets error a developer expects.
*/

import BackgroundAssetsIPC
import Foundation

extension TransferError {
    /// The error the app's delegate or the extension receives for this failure.
    ///
    /// Network failures become `URLError`s with the codes URLSession would use, so code written
    /// for Apple's framework can switch on them; a full disk becomes Cocoa's out-of-space error.
    var wireFailure: WireFailure {
        let (domain, code): (String, Int) = switch kind {
        case .unsupportedURL: (WireFailure.urlDomain, -1002)
        case .connectionFailed: (WireFailure.urlDomain, -1004)
        case .connectionLost: (WireFailure.urlDomain, -1005)
        case .stalled, .tooSlow: (WireFailure.urlDomain, -1001)
        case .malformedResponse, .httpStatus: (WireFailure.urlDomain, -1011)
        case .authenticationRequired: (WireFailure.urlDomain, -1013)
        case .tooManyRedirects: (WireFailure.urlDomain, -1007)
        case .cancelled: (WireFailure.urlDomain, -999)
        case .certificate(.expired): (WireFailure.urlDomain, -1201)
        case .certificate(.notYetValid): (WireFailure.urlDomain, -1204)
        case .certificate(.untrustedIssuer), .certificate(.selfSigned): (WireFailure.urlDomain, -1203)
        case .certificate: (WireFailure.urlDomain, -1202)
        case .secureConnectionFailed: (WireFailure.urlDomain, -1200)
        case .insecureRedirect: (WireFailure.urlDomain, -1022)
        case .unrequestedCoding: (WireFailure.urlDomain, -1016)
        case .sizeMismatch: (WireFailure.backgroundAssetsDomain, 0)
        case .disallowedHost: (WireFailure.backgroundAssetsDomain, 202)
        case let .localFile(errno) where errno == ENOSPC: ("NSCocoaErrorDomain", 640)
        case let .localFile(errno): ("NSPOSIXErrorDomain", Int(errno))
        }
        return WireFailure(domain: domain, code: code, message: description)
    }
}
