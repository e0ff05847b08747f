/*
Abstract:
Foundation as Apple's frameworks bring it, with the fixes Apple code needs on this toolchain.
*/

// On Apple platforms `import BackgroundAssets`, `import BackgroundTasks` and `import OSLog` each
// bring Foundation, networking included, so Apple's files need no other import. On Linux the
// networking types (URLSession, URLRequest, URLCredential, the challenge types) live in
// FoundationNetworking, so both are re-exported here, and the three frameworks re-export this
// module instead of Foundation itself.
//
// A declaration here also shadows Foundation's declaration of the same name and type, for every
// file that gets Foundation only through those frameworks: Swift prefers the module that re-exports
// another over the module it re-exports. FileManager+ReplaceItem.swift and
// URLSessionTask+EarliestBeginDate.swift are the fixes so far.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
