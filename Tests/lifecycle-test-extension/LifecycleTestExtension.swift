/*
Abstract:
A minimal downloader extension for the lifecycle tests.
*/

import BackgroundAssets

@main
struct LifecycleTestExtension: BADownloaderExtension {}
