/*
Abstract:
The entry point of WWDC Slides: lists the sessions, opens one, or removes a pack.
*/

import BackgroundAssets
import Foundation

@main
struct WWDCSlidesApp {
    static func main() async {
        let command = SlidesCommand.parseOrExit()
        do {
            switch command.action {
            case .list:
                try list()
            case let .open(sessionID):
                try await SlidesViewer().open(sessionID: sessionID)
            case let .remove(assetPackID):
                // The pack's files are deleted at once; a later request downloads it again.
                try await AssetPackManager.shared.remove(assetPackWithID: assetPackID)
                print("Removed \(assetPackID) from this device.")
            }
        } catch {
            FileHandle.standardError.write(Data("wwdc-slides: \(error)\n\(installHint)".utf8))
            exit(1)
        }
    }

    /// Prints each session, and whether its slides are on the device.
    private static func list() throws {
        let manager = AssetPackManager.shared
        for session in try SessionLibrary().sessions() {
            let slides = manager.assetPackIsAvailableLocally(withID: session.slidesPackID) ? "slides on device" : "slides on demand"
            print("\(session.id)  \(slides)  \(session.title)")
        }
    }

    /// What to do next when the app cannot read its packs at all because it is not installed yet.
    private static var installHint: String {
        guard Bundle.main.infoDictionary?["BAHasManagedAssetPacks"] == nil else { return "" }
        return """
            WWDC Slides and its extension install with:
            swift run backgroundassets-debug install --app-plist App/WWDCSlides/Info.plist \
            --extension-plist Extension/WWDCSlides/Info.plist --wait

            """
    }
}
