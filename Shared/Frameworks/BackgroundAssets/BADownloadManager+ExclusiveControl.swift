/*
Abstract:
Exclusive control of the app's download queue, across the app and its extension.
*/

import BackgroundAssetsIPC
import Dispatch
import Foundation

extension BADownloadManager {
    /// Acquires exclusive control of the download manager, then calls a handler while holding it.
    ///
    /// Exclusive control is mutual exclusion across the app and its extension, granted first come,
    /// first served; it is released when the handler returns (or when this process exits).
    /// - Parameter performHandler: Called on a background thread: `(true, nil)` while holding control,
    ///   or `(false, error)` when it could not be acquired.
    /// - Note: The handler need not be `@Sendable`, as in Apple's declaration, so Apple code that captures
    ///   a non-`Sendable` object compiles in Swift 6 mode. Apple deprecates this form from iOS, macOS,
    ///   tvOS and visionOS 27 in favour of the `async` ``withExclusiveControl(_:)-(()->ReturnType)``,
    ///   and it is marked so here; Linux has no such versions, so it compiles without a warning.
    @available(iOS, introduced: 16.1, deprecated: 27.0)
    @available(macOS, introduced: 13.0, deprecated: 27.0)
    @available(tvOS, introduced: 18.4, deprecated: 27.0)
    @available(visionOS, introduced: 2.4, deprecated: 27.0)
    public func withExclusiveControl(_ performHandler: @escaping (Bool, (any Error)?) -> Void) {
        acquireExclusiveControl(deadline: nil, UncheckedReference(performHandler))
    }

    /// Acquires exclusive control before a date, then calls a handler while holding it.
    /// - Parameters:
    ///   - date: The latest time to acquire control; a date in the past fails at once.
    ///   - performHandler: Called on a background thread: `(true, nil)` while holding control, or
    ///     `(false, error)` when it was not acquired in time.
    /// - Note: Deprecated by Apple from iOS, macOS, tvOS and visionOS 27 in favour of the `async`
    ///   ``withExclusiveControl(before:_:)``, and marked so here.
    @available(iOS, introduced: 16.1, deprecated: 27.0)
    @available(macOS, introduced: 13.0, deprecated: 27.0)
    @available(tvOS, introduced: 18.4, deprecated: 27.0)
    @available(visionOS, introduced: 2.4, deprecated: 27.0)
    public func withExclusiveControl(
        beforeDate date: Date, perform performHandler: @escaping (Bool, (any Error)?) -> Void
    ) {
        acquireExclusiveControl(deadline: date, UncheckedReference(performHandler))
    }

    /// Acquires exclusive control, runs a closure while holding it, and releases it.
    /// - Parameter body: The work to do with exclusive control; control is released when it returns or throws.
    /// - Returns: What `body` returns.
    /// - Throws: The error that prevented acquiring control, or what `body` throws.
    public nonisolated(nonsending) func withExclusiveControl<ReturnType>(
        _ body: @escaping () throws -> sending ReturnType
    ) async throws -> sending ReturnType {
        try await withExclusiveControl(deadline: nil, body)
    }

    /// Acquires exclusive control before a date, runs a closure while holding it, and releases it.
    /// - Parameters:
    ///   - date: The latest time to acquire control; a date in the past fails at once.
    ///   - body: The work to do with exclusive control; control is released when it returns or throws.
    /// - Returns: What `body` returns.
    /// - Throws: The error that prevented acquiring control in time, or what `body` throws.
    public nonisolated(nonsending) func withExclusiveControl<ReturnType>(
        before date: Date, _ body: @escaping () throws -> sending ReturnType
    ) async throws -> sending ReturnType {
        try await withExclusiveControl(deadline: date, body)
    }

    private nonisolated(nonsending) func withExclusiveControl<ReturnType>(
        deadline: Date?, _ body: () throws -> sending ReturnType
    ) async throws -> sending ReturnType {
        let response = try await connection.send(.downloads(.acquireExclusiveControl(deadline: deadline)))
        let granted = connection.connectionGeneration
        guard case .exclusiveControlGranted = response else {
            throw Self.unexpected(response, for: "withExclusiveControl")
        }
        defer { releaseExclusiveControl(grantedOn: granted) }
        return try body()
    }

    private func acquireExclusiveControl(
        deadline: Date?, _ handler: UncheckedReference<(Bool, (any Error)?) -> Void>
    ) {
        connection.request(.downloads(.acquireExclusiveControl(deadline: deadline))) { [self] result in
            // Read on the reader thread of the connection that answered, before it can be replaced.
            let granted = connection.connectionGeneration
            // The handler may block (fetchCurrentDownloads() is a common first call), so it gets a thread
            // of its own rather than the reader thread or a worker of Dispatch's small shared pool.
            Thread {
                do {
                    let response = try Self.unwrap(result)
                    guard case .exclusiveControlGranted = response else {
                        throw Self.unexpected(response, for: "withExclusiveControl")
                    }
                } catch {
                    return handler.value(false, error)
                }
                handler.value(true, nil)
                self.releaseExclusiveControl(grantedOn: granted)
            }.start()
        }
    }

    /// Gives control back without waiting, on the connection it was granted on.
    ///
    /// A lost connection released it on the service's side already. Sent on a newer connection, the
    /// release would end control acquired since, such as by a handler that starts over after losing
    /// the service.
    private func releaseExclusiveControl(grantedOn generation: UInt64) {
        connection.request(.downloads(.releaseExclusiveControl), onConnection: generation) { _ in }
    }
}
