/*
Abstract:
Opens a file by a path that must resolve inside a directory, in one system call where the kernel can do it.
*/

#include "CConfinedOpen.h"

#include <errno.h>

#if defined(__linux__)
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Swift cannot call the variadic syscall(2), and glibc has no openat2 wrapper.
#if defined(__linux__) && defined(SYS_openat2)
static int open_beneath(int directory, const char *path, int flags, unsigned long long resolve) {
    struct open_how how = {
        .flags = (unsigned long long)flags,
        .mode = 0,
        .resolve = resolve,
    };
    return (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
}

int confined_open(int directory, const char *path, int flags) {
    return open_beneath(directory, path, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
}

int confined_open_without_links(int directory, const char *path, int flags) {
    return open_beneath(directory, path, flags, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
}
#else
int confined_open(int directory, const char *path, int flags) {
    (void)directory;
    (void)path;
    (void)flags;
    errno = ENOSYS;
    return -1;
}

int confined_open_without_links(int directory, const char *path, int flags) {
    return confined_open(directory, path, flags);
}
#endif
