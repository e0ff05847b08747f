/*
Abstract:
Identifiers and titles of WWDC23 sessions, used to name the sessions of a generated catalog.
*/

/// The sessions a generated catalog is named after, in catalog order.
enum SessionTitles {
    /// WWDC23 sessions; the first two become the essential downloads of a generated catalog.
    static let wwdc23: [(id: String, title: String)] = [
        ("wwdc23-10108", "What's new in Background Assets"),
        ("wwdc23-10006", "Build robust and resumable file transfers"),
        ("wwdc23-10164", "What's new in Swift"),
        ("wwdc23-10148", "What's new in SwiftUI"),
        ("wwdc23-10149", "Discover Observation in SwiftUI"),
        ("wwdc23-10187", "Meet SwiftData"),
        ("wwdc23-10154", "Build an app with SwiftData"),
        ("wwdc23-10166", "Write Swift macros"),
        ("wwdc23-10167", "Expand on Swift macros"),
        ("wwdc23-10170", "Beyond the basics of structured concurrency"),
        ("wwdc23-10171", "Meet Swift OpenAPI Generator"),
        ("wwdc23-10172", "Mix Swift and C++"),
        ("wwdc23-10165", "What's new in Xcode 15"),
        ("wwdc23-10160", "Demystify SwiftUI performance"),
        ("wwdc23-10156", "Explore SwiftUI animation"),
        ("wwdc23-10157", "Wind your way through advanced animations in SwiftUI"),
        ("wwdc23-10158", "Animate with springs"),
        ("wwdc23-10161", "Inspectors in SwiftUI: Discover the details"),
        ("wwdc23-10162", "The SwiftUI cookbook for focus"),
        ("wwdc23-10195", "Model your schema with SwiftData"),
        ("wwdc23-10196", "Dive deeper into SwiftData"),
        ("wwdc23-10189", "Migrate to SwiftData"),
        ("wwdc23-10037", "Explore pie charts and interactivity in Swift Charts"),
        ("wwdc23-10109", "Meet SwiftUI for spatial computing"),
    ]

    /// The identifier and title of the session at `index`, inventing numbered sessions past the real list.
    static func session(at index: Int) -> (id: String, title: String) {
        if index < wwdc23.count { return wwdc23[index] }
        let number = index - wwdc23.count + 1
        return ("wwdc23-\(20000 + number)", "Lab session \(number)")
    }
}
