/*
Abstract:
What `import OSLog` brings in besides the logging types, as Apple's module does.
*/

// Apple's OSLog module re-exports Foundation (through os), so a file that imports only OSLog uses
// Date, URL and the rest. FoundationFixes is Foundation (and, on Linux, FoundationNetworking) with
// the fixes Apple code needs; see its Exports file.
@_exported import FoundationFixes
