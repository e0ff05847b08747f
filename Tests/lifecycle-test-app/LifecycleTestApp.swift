/*
Abstract:
A minimal app for the lifecycle tests.
*/

@main
struct LifecycleTestApp {
    static func main() async {}
}
