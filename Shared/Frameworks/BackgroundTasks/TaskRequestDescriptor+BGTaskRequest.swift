/*
Abstract:
A BGTaskRequest as the wire carries it, and back.
*/

import BackgroundAssetsIPC
import Foundation

extension TaskRequestDescriptor {
    /// The descriptor of a request, or `nil` for a `BGTaskRequest` that is neither kind.
    init?(_ request: BGTaskRequest) {
        switch request {
        case let continued as BGContinuedProcessingTaskRequest:
            self.init(
                continuedProcessing: continued.identifier, title: continued.title, subtitle: continued.subtitle,
                strategy: continued.strategy == .fail ? .fail : .queue, requiredResources: continued.requiredResources.rawValue)
        case let processing as BGProcessingTaskRequest:
            self.init(
                identifier: processing.identifier, kind: .processing, earliestBeginDate: processing.earliestBeginDate,
                requiresNetworkConnectivity: processing.requiresNetworkConnectivity,
                requiresExternalPower: processing.requiresExternalPower)
        case let refresh as BGAppRefreshTaskRequest:
            self.init(identifier: refresh.identifier, kind: .appRefresh, earliestBeginDate: refresh.earliestBeginDate)
        default:
            return nil
        }
    }

    /// The request this descriptor describes.
    var request: BGTaskRequest {
        let request: BGTaskRequest
        switch kind {
        case .appRefresh:
            request = BGAppRefreshTaskRequest(identifier: identifier)
        case .processing:
            let processing = BGProcessingTaskRequest(identifier: identifier)
            processing.requiresNetworkConnectivity = requiresNetworkConnectivity
            processing.requiresExternalPower = requiresExternalPower
            request = processing
        case .continuedProcessing:
            let continued = BGContinuedProcessingTaskRequest(identifier: identifier, title: title ?? "", subtitle: subtitle ?? "")
            continued.strategy = submissionStrategy == .fail ? .fail : .queue
            continued.requiredResources = BGContinuedProcessingTaskRequest.Resources(rawValue: requiredResources ?? 0)
            request = continued
        }
        request.earliestBeginDate = earliestBeginDate
        return request
    }
}
