/*
Abstract:
`import os` and `import os.log`: Apple's logging and signposts, whose one home is the OSLog module.
*/

// On Apple platforms `os` is the module of the unified logging system and OSLog re-exports it.
// Here the implementation lives in OSLog (Logger, OSLog, OSLogType, os_log, OSSignposter), and this
// module re-exports it, so code that imports either gets the same types.
@_exported import OSLog

// The C module of the same name (Shared/Frameworks/COSModule), which declares nothing but gives
// `import os.log` and `import os.signpost` the submodules they name; Swift loads this module on top.
@_exported import os
