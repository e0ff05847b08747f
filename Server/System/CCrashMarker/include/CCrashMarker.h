/*
Abstract:
Leaves a marker file when the process crashes, naming the thread that crashed.
*/

#ifndef CCRASHMARKER_H
#define CCRASHMARKER_H

/// Installs handlers for the signals a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE,
/// SIGABRT). On a crash the handler creates `path` (mode 0600) holding the signal number and the
/// crashing thread's name, then hands the signal to the handler that was there before (the Swift
/// runtime's backtracer), or to the default action. It holds four descriptors (on `/dev/null`)
/// that a crash gives back first, so a process at its descriptor limit still writes its marker
/// and gets its backtrace. Returns 0, or -1 when `path` is too long.
int crash_marker_install(const char *path);

#endif
