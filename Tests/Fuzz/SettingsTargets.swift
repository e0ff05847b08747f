/*
Abstract:
Fuzz targets for the files on the device the service reads: Info.plists, config.json and settings.json.
*/

import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation

extension FuzzTarget {
    static let settingsTargets: [FuzzTarget] = [
        FuzzTarget(name: "info-plist",
                   summary: "AppInfoPlist and ExtensionInfoPlist, the installed bundles' Info.plist files") { data in
            _ = try? AppInfoPlist(data: data, file: "Info.plist")
            _ = try? ExtensionInfoPlist(data: data, file: "Info.plist")
        },
        FuzzTarget(name: "service-config",
                   summary: "ServiceConfiguration.load, the service's system/config.json") { data in
            let url = ScratchFile.url(named: "config.json")
            guard (try? data.write(to: url)) != nil else { return }
            _ = try? ServiceConfiguration.load(from: url)
        },
        FuzzTarget(name: "device-settings",
                   summary: "DeviceSettings.load, the device's system/settings.json") { data in
            let url = ScratchFile.url(named: "settings.json")
            guard (try? data.write(to: url)) != nil else { return }
            _ = try? DeviceSettings.load(from: url)
        },
    ]
}
