/*
Abstract:
The service's answers to the debug tool's family: installs, simulations, settings, the clock, force-quits, purges, notification answers.
*/

import BackgroundAssetsIPC

extension BackgroundAssetsService {
    /// Answers a request of the debug tool's family; the caller has been checked to be the tool.
    func handleToolRequest(_ request: ClientRequest.Tool) async throws -> ServerResponse {
        switch request {
        case let .install(request):
            return await install(request)
        case let .uninstall(bundleIdentifier):
            return await uninstall(bundleIdentifier)
        case let .simulate(kind, bundleIdentifier):
            return await simulate(kind, bundleIdentifier: bundleIdentifier)
        case let .updateSettings(change):
            return updateSettings(change)
        case let .simulateTask(action, identifier, bundleIdentifier):
            return await simulateTask(action, identifier: identifier, bundleIdentifier: bundleIdentifier)
        case .resetDeviceClock:
            await resetDeviceClock()
            return .status(try await status())
        case let .forceQuit(bundleIdentifier):
            return await forceQuit(bundleIdentifier)
        case let .purgeAssetPacks(bundleIdentifier, bytes):
            let removed = await assetPacks.purge(app: bundleIdentifier, bytes: bytes.map { max($0, 0) })
            return .assetPackChanges(AssetPackChanges(removed: removed.map { "\($0.bundleIdentifier)/\($0.packID)" }))
        case let .respondToNotification(bundleIdentifier, identifier, action, text):
            return await respondToNotification(bundleIdentifier: bundleIdentifier, identifier: identifier, action: action, text: text)
        }
    }
}

extension ClientRequest.Tool {
    /// The debug tool's command that sends this request, for the refusal another role gets.
    var command: String {
        switch self {
        case .install: "install"
        case .uninstall: "uninstall"
        case .simulate, .simulateTask: "simulate"
        case .updateSettings: "settings"
        case .resetDeviceClock: "clock"
        case .forceQuit: "simulate --force-quit"
        case .purgeAssetPacks: "purge"
        case .respondToNotification: "notifications --respond"
        }
    }
}
