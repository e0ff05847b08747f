/*
Abstract:
The base class of every download: its identity, state, priority, and whether it is essential.
*/

import BackgroundAssetsIPC
import Foundation

/// An object that represents an in-progress or concluded asset download.
///
/// You don't create instances of this class directly; create a ``BAURLDownload`` instead. The
/// objects the framework hands you (from `fetchCurrentDownloads()` or in delegate callbacks) are
/// snapshots: their ``state`` is the state when they were delivered, so fetch again for a newer one.
///
/// - Note: A `BADownload` is immutable, which is why it can be shared across threads and tasks.
///   The class is not `open`, so only this module subclasses it, and every subclass adds only
///   immutable, `Sendable` stored properties; that guarantee is what the `@unchecked Sendable`
///   conformance rests on, since the compiler cannot check a non-final class.
/// - Note: Two downloads are equal when they have the same ``uniqueIdentifier``: a snapshot equals
///   the download it was taken from, and ``removingEssential()`` returns a download equal to its
///   original. Apple's class keeps `NSObject`'s identity equality instead.
/// - Note: As in Apple's framework it is an `NSObject` that adopts `NSCopying` and `NSSecureCoding`:
///   `copy()` returns an equal download of the same class, and `NSKeyedArchiver` archives it.
public class BADownload: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Everything the download is, in the form the service stores and sends.
    let descriptor: DownloadDescriptor

    /// Creates a download from its wire form; subclasses rebuild their own properties from it.
    /// - Parameter descriptor: The download's identity, request, and state.
    required init(descriptor: DownloadDescriptor) {
        self.descriptor = descriptor
        super.init()
    }

    /// Creates the download an archive describes, or `nil` when the archive holds no valid download.
    /// - Parameter coder: A keyed coder, such as `NSKeyedUnarchiver`.
    public required convenience init?(coder: NSCoder) {
        guard let descriptor = Self.decodeDescriptor(from: coder) else { return nil }
        self.init(descriptor: descriptor)
    }

    /// The app-specific string that uniquely identifies the downloadable asset.
    public var identifier: String { descriptor.identifier }

    /// The system-provided string that uniquely identifies the download object.
    public var uniqueIdentifier: String { descriptor.uniqueIdentifier }

    /// The state of the download when this object was created or delivered.
    public var state: State { State(descriptor.state) }

    /// The download's execution priority; higher-priority downloads of the app run first.
    public var priority: Priority { Priority(descriptor.priority) }

    /// Whether the download is essential.
    ///
    /// Essential downloads happen while the app is being installed or updated, and the app cannot
    /// launch until they end. Only the extension schedules them, by returning them from
    /// `downloads(for:manifestURL:extensionInfo:)` for an install or update request; they need an
    /// accurate file size or they fail.
    public var isEssential: Bool { descriptor.isEssential }

    /// Returns a copy of the download that is not essential, with the same identifiers.
    ///
    /// Use it to schedule an essential download that failed as an ordinary background download,
    /// after the install or update phase in which essential downloads are permitted has ended.
    /// - Returns: A download of the same class, identifier, and unique identifier, with
    ///   ``isEssential`` `false`.
    public func removingEssential() -> Self {
        var copy = descriptor
        copy.isEssential = false
        return Self(descriptor: copy)
    }

    /// Whether an object stands for the same download (a `BADownload` with the same ``uniqueIdentifier``).
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? BADownload)?.uniqueIdentifier == uniqueIdentifier
    }

    /// A hash of the ``uniqueIdentifier``, consistent with `isEqual(_:)`.
    public override var hash: Int { uniqueIdentifier.hashValue }

    /// The class, identifier, state, priority, and unique identifier, for logs.
    public override var description: String {
        "<\(type(of: self)) \(identifier.debugDescription) state=\(state) priority=\(priority.rawValue)"
            + "\(isEssential ? " essential" : "") uniqueIdentifier=\(uniqueIdentifier)>"
    }
}
