/*
Abstract:
Opens a file by a path that must resolve inside a directory, in one system call where the kernel can do it.
*/

#ifndef C_CONFINED_OPEN_H
#define C_CONFINED_OPEN_H

/// Opens `path`, relative to `directory`, with `flags`, refusing any resolution that leaves `directory`:
/// `..` above it, absolute paths, absolute symlinks, and symlinks that lead out (Linux's `openat2` with
/// `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`).
/// Returns the descriptor, or -1 with `errno` set: `EXDEV` when the path would leave `directory`
/// (or uses an absolute symlink), `ENOSYS` where the kernel has no `openat2` (before Linux 5.6, or not Linux).
int confined_open(int directory, const char *_Nonnull path, int flags);

/// Opens `path` as ``confined_open`` does, and also refuses a symbolic link at any component, the last
/// included (`RESOLVE_NO_SYMLINKS`): `ELOOP` when one is there. For folders inside a container its app
/// can change, where a link planted anywhere on the path must not be followed.
int confined_open_without_links(int directory, const char *_Nonnull path, int flags);

#endif
