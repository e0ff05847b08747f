/*
Abstract:
The hub's routing of what one part tells it to the parts that act on it.
*/

extension BackgroundAssetsService {
    /// Passes a part's notice on to the parts that act on it.
    func handle(_ notice: ServiceNotice) async {
        switch notice {
        case let .extensionHost(event): await handle(event)
        case let .backgroundSessions(notice): await handle(notice)
        case let .assetPacks(.packsEnded(ended)): await packsEnded(ended)
        case let .periodicCheckDue(app, deviceTime): await periodicCheckDue(app, deviceTime: deviceTime)
        case .appRecordChanged: deviceState.appRecordChanged()
        case .taskRequestsChanged: deviceState.tasksChanged()
        }
    }
}
