/*
Abstract:
End-to-end: opening the sample is its launch, traced before anything any of its connections asks.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension SampleTests {
    @Suite("Opening the app is its launch")
    struct SampleLaunchOrderTests {
        @Test("Each opening is traced as a launch before the app's first request, on whichever connection it comes")
        func launchComesFirst() async throws {
            try await withSampleDevice { device in
                _ = try await device.installAndRunToCompletion()
                // The app opens connections for downloads and for its tasks at once; the launch
                // must come first whichever of them the service hears first.
                for run in 1...3 {
                    let before = device.trace().count
                    let result = try await device.runApp()
                    #expect(result.status.isSuccess, "run \(run): \(result.standardError)")
                    // Connections coming and going are not requests; the previous run's last disconnection
                    // can be traced after this run's count began.
                    let asked = device.trace().dropFirst(before).filter {
                        $0.from == "app" && $0.event != "connected" && $0.event != "disconnected"
                    }
                    #expect(asked.first?.event == "appLaunched", "run \(run): \(asked.map(\.event))")
                    #expect(asked.filter { $0.event == "appLaunched" }.count == 1, "run \(run): \(asked.map(\.event))")
                }
            }
        }
    }
}
