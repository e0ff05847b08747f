/*
Abstract:
The app's entry point.
*/

@main
struct WWDCSessionsApp {
    static func main() async {}
}
