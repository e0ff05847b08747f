/*
Abstract:
Code written from Apple's "Downloading files in the background", kept compiling with its one import changed.
*/

// Apple's article in three parts: the session owner and delegate, the app delegate, and the entry
// point. Edits from Apple's platforms: `import BackgroundURLSessions` for `import Foundation` and
// `import UIKit`; the app delegate adopts BackgroundURLSessionApplicationDelegate and its method has
// no UIApplication parameter; the entry point names the app delegate (the one added line). The
// article's urlSessionDidFinishEvents reaches the app delegate through UIApplication.shared; here
// the downloader keeps a reference to it instead.
import BackgroundURLSessions

final class ArticleDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: the article's class, used from the delegate queue and the test only.
    weak var appDelegate: ArticleAppDelegate?
    var savedURL: URL?
    let documentsURL: URL

    init(documentsURL: URL) {
        self.documentsURL = documentsURL
    }

    lazy var urlSession: URLSession = {
        let config = URLSessionConfiguration.background(withIdentifier: "MySession")
        config.isDiscretionary = true
        config.sessionSendsLaunchEvents = true
        return URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }()

    func scheduleDownload(of url: URL) {
        let backgroundTask = urlSession.downloadTask(with: url)
        backgroundTask.earliestBeginDate = Date().addingTimeInterval(60 * 60)
        backgroundTask.countOfBytesClientExpectsToSend = 200
        backgroundTask.countOfBytesClientExpectsToReceive = 500 * 1024
        backgroundTask.resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let httpResponse = downloadTask.response as? HTTPURLResponse,
              (200...299).contains(httpResponse.statusCode) else {
            print("server error")
            return
        }
        do {
            let savedURL = documentsURL.appendingPathComponent(location.lastPathComponent)
            try FileManager.default.moveItem(at: location, to: savedURL)
            self.savedURL = savedURL
        } catch {
            print("file error: \(error)")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            guard let backgroundCompletionHandler = self.appDelegate?.backgroundCompletionHandler else { return }
            backgroundCompletionHandler()
        }
    }
}

final class ArticleAppDelegate: NSObject, BackgroundURLSessionApplicationDelegate, @unchecked Sendable {
    // @unchecked: set on the main queue, as UIKit calls it.
    var backgroundCompletionHandler: (() -> Void)?

    func application(handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        backgroundCompletionHandler = completionHandler
    }
}

/// The entry point's one added line, compiled here; the test calls it only to see it builds.
func articleEntryPoint(_ appDelegate: ArticleAppDelegate) {
    BackgroundURLSessionEvents.applicationDelegate = appDelegate
}
