/*
Abstract:
How a child process ended: an exit code or a signal.
*/

import BackgroundAssetsIPC

/// How a child process ended, as the service's own children report it.
public typealias ExitStatus = ChildExit
