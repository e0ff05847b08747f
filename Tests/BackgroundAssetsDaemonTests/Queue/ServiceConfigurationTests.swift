/*
Abstract:
Tests for reading the service's policy knobs from config.json.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import TestSupport
import Testing

@Suite("Service configuration")
struct ServiceConfigurationTests {
    static func load(_ json: String) throws -> ServiceConfiguration {
        let folder = try TemporaryDirectory()
        let url = folder.appending("config.json")
        try Data(json.utf8).write(to: url)
        return try ServiceConfiguration.load(from: url)
    }

    @Test("Without a config.json every knob has its default")
    func defaultsWithoutFile() throws {
        let configuration = try ServiceConfiguration.load(from: URL(fileURLWithPath: "/nonexistent/config.json"))
        #expect(configuration == ServiceConfiguration())
        #expect(configuration.maxConcurrentDownloads > 0)
    }

    @Test("Knobs in config.json override the defaults, others keep theirs")
    func readsKnobs() throws {
        let configuration = try Self.load(#"{"maxConcurrentDownloads": 2, "retryInitialDelay": 0.25, "backgroundBandwidthLimit": 0}"#)
        #expect(configuration.maxConcurrentDownloads == 2)
        #expect(configuration.retryInitialDelay == 0.25)
        #expect(configuration.backgroundBandwidthLimit == 0)
        #expect(configuration.idleExitAfter == ServiceConfiguration().idleExitAfter)
    }

    @Test("maxConcurrentSmallDownloads takes 0 (no slots of their own) to 1000, and defaults to 16")
    func smallDownloadSlots() throws {
        #expect(ServiceConfiguration().maxConcurrentSmallDownloads == 16)
        #expect(try Self.load(#"{"maxConcurrentSmallDownloads": 0}"#).maxConcurrentSmallDownloads == 0)
        #expect(try Self.load(#"{"maxConcurrentSmallDownloads": 1000}"#).maxConcurrentSmallDownloads == 1000)
    }

    @Test("essentialConnectivityWait is still accepted as the old name of essentialWait")
    func oldNameOfEssentialWait() throws {
        #expect(try Self.load(#"{"essentialConnectivityWait": 7}"#).essentialWait == 7)
        #expect(try Self.load(#"{"essentialWait": 3, "foregroundWait": 0}"#).essentialWait == 3)
        #expect(try Self.load(#"{"foregroundWait": 0}"#).foregroundWait == 0)
    }

    @Test("trustsClientClaims is off unless config.json says true, and takes only true or false")
    func trustsClientClaims() throws {
        #expect(ServiceConfiguration().trustsClientClaims == false)
        #expect(try Self.load(#"{"trustsClientClaims": true}"#).trustsClientClaims)
        #expect(try Self.load(#"{"trustsClientClaims": false}"#).trustsClientClaims == false)
        for json in [#"{"trustsClientClaims": 1}"#, #"{"trustsClientClaims": "yes"}"#] {
            do {
                _ = try Self.load(json)
                Issue.record("\(json) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.key == "trustsClientClaims")
                #expect(error.description.contains("true or false"), "\(error)")
            }
        }
    }

    @Test("A misspelled, mistyped or out-of-range knob is refused by name")
    func refusesBadKnobs() throws {
        for (json, key) in [
            (#"{"maxConcurentDownloads": 2}"#, "maxConcurentDownloads"),
            (#"{"retryMaxDelay": "soon"}"#, "retryMaxDelay"),
            (#"{"maxConcurrentDownloads": 0}"#, "maxConcurrentDownloads"),
            (#"{"checkpointInterval": true}"#, "checkpointInterval"),
        ] {
            #expect(throws: ConfigurationError.self, "\(json)") { try Self.load(json) }
            do {
                _ = try Self.load(json)
            } catch let error as ConfigurationError {
                #expect(error.key == key)
                #expect(error.description.contains(key))
            }
        }
        #expect(throws: ConfigurationError.self) { try Self.load("[1, 2]") }
        #expect(throws: ConfigurationError.self) { try Self.load(#"{"maxConcurrentDownloads": 2,}"#) }
        #expect(throws: ConfigurationError.self) { try Self.load(#"{"essentialWait": 2, "essentialConnectivityWait": 3}"#) }
        #expect(throws: ConfigurationError.self) { try Self.load("{not json") }
    }
}

@Suite("Service configuration at the extremes")
struct ServiceConfigurationExtremeTests {
    @Test("A number too large for its knob is refused with the key, the value and the range", arguments: [
        ("maxConcurrentDownloads", "1e308", "from 1 to 1000"),
        ("maxConcurrentDownloads", "99999999999999999999", "from 1 to 1000"),
        ("maxConcurrentDownloads", "1E400", "from 1 to 1000"),
        ("maxConcurrentSmallDownloads", "-1", "from 0 to 1000"),
        ("maxConcurrentSmallDownloads", "1001", "from 0 to 1000"),
        ("extensionMemoryLimit", "1e30", "from 8388608 to 1099511627776"),
        ("backgroundBandwidthLimit", "-1", "from 0 to 1099511627776"),
        ("retryMaxDelay", "1e308", "from 0.01 to 315,360,000"),
        ("timeScale", "1e9", "from 1 to 1,000,000"),
        ("stallTimeout", "-0.5", "from 0.1 to"),
    ])
    func outOfRange(key: String, value: String, range: String) {
        #expect {
            try ServiceConfigurationTests.load(#"{"\#(key)": \#(value)}"#)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == key && error.description.contains(value) && error.description.contains(range)
        }
    }

    @Test("A count with a fraction is refused; a whole number in exponent form is accepted")
    func wholeNumbers() throws {
        #expect {
            try ServiceConfigurationTests.load(#"{"maxConcurrentDownloads": 2.5}"#)
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("2.5 is not a whole number") == true
        }
        #expect(try ServiceConfigurationTests.load(#"{"checkpointBytes": 1e6}"#).checkpointBytes == 1_000_000)
        #expect(try ServiceConfigurationTests.load(#"{"maxConcurrentDownloads": 1000}"#).maxConcurrentDownloads == 1000)
    }

    @Test("The largest values every knob accepts are usable: durations convert without trapping")
    func largestValues() throws {
        let configuration = try ServiceConfigurationTests.load(
            #"{"retryMaxDelay": 315360000, "maxDownloadAge": 315360000, "timeScale": 1000000, "stallTimeout": 315360000}"#)
        #expect(Duration.seconds(fractional: configuration.retryMaxDelay) == .seconds(315_360_000))
        #expect(Duration.seconds(fractional: 1e300) == .nanoseconds(Int64.max))
        #expect(Duration.seconds(fractional: -.infinity) == .nanoseconds(Int64.min))
        var random = SystemRandomNumberGenerator()
        let delay = RetryPolicy(configuration: configuration).delay(afterFailures: 5000, retryAfter: nil, using: &random)
        #expect(delay <= .seconds(315_360_000))
    }
}

@Suite("Retry policy")
struct RetryPolicyTests {
    static var policy: RetryPolicy {
        var configuration = ServiceConfiguration()
        configuration.retryInitialDelay = 2
        configuration.retryMaxDelay = 60
        configuration.maxDownloadAge = 3600
        return RetryPolicy(configuration: configuration)
    }

    @Test("The delay doubles with each failure, jittered within its upper half, up to the maximum")
    func backsOffExponentially() {
        var random = SystemRandomNumberGenerator()
        for failures in 1...10 {
            let full = min(Duration.seconds(2) * (1 << (failures - 1)), .seconds(60))
            for _ in 0..<20 {
                let delay = Self.policy.delay(afterFailures: failures, retryAfter: nil, using: &random)
                #expect(delay >= full / 2 && delay <= full, "failure \(failures): \(delay)")
            }
        }
    }

    @Test("Retry-After replaces the backoff, clamped to the policy's bounds")
    func honoursRetryAfter() {
        var random = SystemRandomNumberGenerator()
        #expect(Self.policy.delay(afterFailures: 1, retryAfter: .seconds(7), using: &random) == .seconds(7))
        #expect(Self.policy.delay(afterFailures: 1, retryAfter: .seconds(86_400), using: &random) == .seconds(60))
        #expect(Self.policy.delay(afterFailures: 9, retryAfter: .zero, using: &random) == .seconds(2))
    }

    @Test("A download gives up only after the maximum age without progress")
    func expiresWithoutProgress() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(!Self.policy.hasExpired(lastProgress: start, now: start.addingTimeInterval(3599)))
        #expect(Self.policy.hasExpired(lastProgress: start, now: start.addingTimeInterval(3601)))
    }
}
