/*
Abstract:
What `import BackgroundTasks` brings in besides the framework's own types, as Apple's module does.
*/

// Apple's BackgroundTasks module re-exports Foundation, so ColorFeed-style code that imports only
// BackgroundTasks uses Date, TimeInterval and OperationQueue. FoundationFixes is Foundation (and, on
// Linux, FoundationNetworking) with the fixes Apple code needs; see its Exports file.
@_exported import FoundationFixes
