/*
Abstract:
The downloader extension the system launches for content requests and finished downloads.
*/

import BackgroundAssets

@main
struct BackgroundDownloadHandler: BADownloaderExtension {}
