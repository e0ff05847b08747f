/*
Abstract:
The wire protocol brings the platform base it is built on, so a process that speaks it needs one import.
*/

// As NIO re-exports NIOCore: sockets, device paths and file helpers are part of what every client uses.
@_exported import DevicePlatform
