/*
Abstract:
The lifecycle suites' parent: real installs, content requests and extension launches, one at a time.
*/

import Testing

/// The Background Assets extension lifecycle, end to end: the service installs `lifecycle-test-app`,
/// launches `lifecycle-test-extension` for content requests and downloads, and enforces its limits.
///
/// The nested suites (one file each, `Lifecycle*Tests.swift`) run one test at a time: their timing
/// assertions (throttled transfers, runtime limits, an accelerated clock) must not compete with
/// each other for the machine's cores.
@Suite("Background Assets extension lifecycle", .serialized, .timeLimit(.minutes(2)))
struct LifecycleTests {}
