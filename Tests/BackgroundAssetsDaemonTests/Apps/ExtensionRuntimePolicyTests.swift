/*
Abstract:
Tests for the extension's per-call runtime limit and the app's daily runtime budget.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Extension runtime policy")
struct ExtensionRuntimePolicyTests {
    static let day: TimeInterval = 24 * 3600
    static let morning = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("A fresh app gets the per-call limit; the budget caps the last call of the day")
    func grants() throws {
        let policy = ExtensionRuntimePolicy(entryPointLimit: 60, dailyBudget: 600)
        var app = try AppRegistryTests.sampleApp()
        #expect(policy.grant(for: app, at: Self.morning) == .run(seconds: 60))
        app.recordExtensionRuntime(570, at: Self.morning)
        #expect(policy.grant(for: app, at: Self.morning) == .run(seconds: 30))
        #expect(policy.budgetLeft(for: app, at: Self.morning) == 30)
        app.recordExtensionRuntime(45, at: Self.morning)
        #expect(policy.grant(for: app, at: Self.morning) == .budgetExhausted(usedSeconds: 615))
        #expect(policy.budgetLeft(for: app, at: Self.morning) == 0)
    }

    @Test("The budget comes back the next day, or at once after a reset")
    func resets() throws {
        let policy = ExtensionRuntimePolicy()
        #expect(policy.dailyBudget == 600)
        var app = try AppRegistryTests.sampleApp()
        app.recordExtensionRuntime(policy.dailyBudget, at: Self.morning)
        #expect(policy.grant(for: app, at: Self.morning) == .budgetExhausted(usedSeconds: 600))
        #expect(policy.grant(for: app, at: Self.morning.addingTimeInterval(Self.day)) == .run(seconds: 60))
        app.resetExtensionRuntime()
        #expect(policy.grant(for: app, at: Self.morning) == .run(seconds: 60))
    }

    @Test("A nonsensical budget refuses to run rather than granting forever")
    func badBudget() throws {
        let app = try AppRegistryTests.sampleApp()
        for budget in [0, -1, Double.nan] {
            let grant = ExtensionRuntimePolicy(entryPointLimit: 60, dailyBudget: budget).grant(
                for: app, at: Self.morning)
            guard case .budgetExhausted = grant else {
                Issue.record("budget \(budget) granted \(grant)")
                continue
            }
        }
    }
}
