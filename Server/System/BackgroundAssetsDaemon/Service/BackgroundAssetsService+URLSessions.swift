/*
Abstract:
Routing between the service and its background-session host: the app's requests, the queue's events for their transfers, and the host's events.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Answers the background-session requests of an app or its extension.
    func handleURLSessionRequest(_ request: ClientRequest.URLSessions, hello: Hello, connection: UInt64) async -> ServerResponse {
        let app = hello.bundleIdentifier
        guard let client = clients[connection] else { return .done }
        guard hello.role != .tool else {
            return sessionFailure("Background sessions belong to apps and their extensions; the debug tool downloads with backgroundassets-debug download.")
        }
        do {
            switch request {
            case let .attachURLSession(settings):
                let groups = (try? await registry.app(app))?.bundle.app.appGroups
                try await urlSessions.attach(settings, app: app, connection: client.connection, appGroups: groups,
                                             isExtension: hello.role == .extension)
                return .done
            case let .makeURLSessionTask(session, request):
                let groups = request.isUpload ? (try? await registry.app(app))?.bundle.app.appGroups ?? [] : []
                return .urlSessionTask(try await urlSessions.makeTask(request, session: session, app: app, connection: connection,
                                                                      appGroups: groups))
            case let .makeURLSessionTaskFromResumeData(session, data):
                return .urlSessionTask(try await urlSessions.makeTask(resumeData: data, session: session, app: app, connection: connection))
            case let .changeURLSessionTask(session, task, command):
                return .resumeData(try await urlSessions.change(task: task, session: session, command: command, app: app, connection: connection))
            case let .urlSessionFileHandled(session, task):
                await urlSessions.fileHandled(task: task, session: session, app: app)
                return .done
            case .fetchURLSessionsAwaitingEvents:
                return .urlSessionIdentifiers(urlSessions.sessionsAwaitingEvents(app: app))
            case let .urlSessionEventsHandled(session):
                await urlSessions.eventsHandled(session: session, app: app)
                return .done
            case let .invalidateURLSession(session, cancellingTasks):
                try await urlSessions.invalidate(session: session, cancellingTasks: cancellingTasks, app: app, connection: connection)
                return .done
            }
        } catch {
            return sessionFailure(error.message)
        }
    }

    /// Routes the queue's event about a background session's transfer to the host; a challenge
    /// gets an id the app answers with `answerChallenge`, as Background Assets' challenges do.
    func routeURLSessionTransfer(_ event: QueueEvent) async {
        guard case let .challenge(row, challenge) = event else { return await urlSessions.transfer(event) }
        let id = allocateIdentifier()
        handOvers.ask(id, rowID: row.id)
        if await urlSessions.challenge(challenge, row: row, challengeID: id) { return }
        // No process has the session: what a session without a delegate does.
        _ = handOvers.answer(id)
        try? await queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .performDefaultHandling))
    }

    /// Does what the background-session host asks of the service.
    func handle(_ notice: BackgroundSessionHost.Notice) async {
        switch notice {
        case let .launchApp(app, session):
            let installed = try? await registry.app(app)
            guard installed?.state == .launchable, !installs.isInstalling(app) else {
                urlSessions.launchFailed(app: app, session: session)
                trace.append(.init(from: "backgroundassetsd", to: "nobody", event: "launchInBackground", app: app,
                                   detail: "not launched for the events of session \(session): the app is not installed and launchable"))
                return
            }
            await launchAppInBackground(app, for: .urlSessionEvents(session: session))
        case let .endBackgroundLaunchIfIdle(app):
            endBackgroundLaunchIfIdle(app: app)
        }
    }

    /// Tells the background-session and notification hosts the device settings changed: transfers
    /// waiting for them may start, and answers to apps that ask to notify follow them.
    func deviceSettingsChanged() async {
        notifications.settingsChanged(settings)
        await urlSessions.settingsChanged(settings)
    }

    /// A person force-quits the app, as swiping it away does: its processes end, its background
    /// transfers are cancelled with `NSURLErrorCancelledReasonUserForceQuitApplication`, and the
    /// system does not launch it for them.
    func forceQuit(_ bundleIdentifier: String?) async -> ServerResponse {
        let app: InstalledApp
        switch await resolveApp(bundleIdentifier) {
        case let .success(found): app = found
        case let .failure(refusal): return refusal.response
        }
        let id = app.bundleIdentifier
        let processes = clients.all.filter { $0.hello?.bundleIdentifier == id && $0.hello?.role == .app }
            .compactMap { $0.hello?.processIdentifier }
        trace.append(.init(from: "tool", to: "backgroundassetsd", event: "forceQuit", app: id,
                           detail: processes.isEmpty ? "not running" : "pid \(Set(processes).sorted().map(String.init).joined(separator: ", "))"))
        for pid in Set(processes) where pid > 1 { kill(pid, SIGKILL) }
        tasks.removeBackgroundLaunch(of: id)?.kill()
        await urlSessions.forceQuit(app: id)
        return .app(appStatus(app))
    }

    /// Detaches a closed connection's sessions at once, then does what is left (a file it did not
    /// handle waits again, and may launch the app).
    /// - Parameter app: The app whose last connection this was: it no longer runs, and a completion
    ///   that waited while another of its connections was open launches it now.
    func urlSessionsConnectionClosed(_ connection: UInt64, appStopped app: String? = nil) {
        let actions = urlSessions.connectionClosed(connection) + (app.map { urlSessions.appStopped($0) } ?? [])
        guard !actions.isEmpty else { return }
        activities.run("background sessions of connection \(connection)") { [weak self] in await self?.performURLSessionActions(actions) }
    }

    private func performURLSessionActions(_ actions: [BackgroundSessionAction]) async {
        await urlSessions.perform(actions)
    }

    private func sessionFailure(_ message: String) -> ServerResponse {
        .failure(WireFailure(domain: WireFailure.urlDomain, code: -1, message: message))
    }
}
