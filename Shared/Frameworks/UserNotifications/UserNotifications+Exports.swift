/*
Abstract:
What `import UserNotifications` brings besides the framework's own types, as Apple's module does.
*/

// Apple's UserNotifications re-exports Foundation; so does this module, through FoundationFixes as
// the other frameworks here do.
@_exported import FoundationFixes
