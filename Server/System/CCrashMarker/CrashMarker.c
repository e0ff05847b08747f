/*
Abstract:
Leaves a marker file when the process crashes, naming the thread that crashed.
*/

#include "CCrashMarker.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// A signal handler may only call async-signal-safe functions (open, write, close, sigaction,
// raise) and read memory prepared beforehand, so the path is copied here once.
static char marker_path[4096];
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous[CRASH_SIGNAL_COUNT];

// Descriptors held for the moment of a crash and given back then: a process at its descriptor
// limit could otherwise neither open its marker nor let the Swift runtime start the backtracer,
// and a crash there left no trace of where it happened.
#define SPARE_DESCRIPTOR_COUNT 4
static int spare_descriptors[SPARE_DESCRIPTOR_COUNT] = {-1, -1, -1, -1};

static void append_number(char *buffer, size_t *length, int number) {
    char digits[12];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + number % 10);
        number /= 10;
    } while (number > 0 && count < sizeof digits);
    while (count > 0) buffer[(*length)++] = digits[--count];
}

static void crashed(int signal_number, siginfo_t *info, void *context) {
    for (size_t index = 0; index < SPARE_DESCRIPTOR_COUNT; index++) {
        if (spare_descriptors[index] >= 0) close(spare_descriptors[index]);
        spare_descriptors[index] = -1;
    }
    char line[64];
    size_t length = 0;
    memcpy(line, "signal ", 7);
    length = 7;
    append_number(line, &length, signal_number);
    line[length++] = '\n';
#if defined(__linux__)
    char name[17] = {0};
    if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0) {
        memcpy(line + length, "thread ", 7);
        length += 7;
        for (size_t index = 0; index < 16 && name[index] != 0; index++) line[length++] = name[index];
        line[length++] = '\n';
    }
#endif
    int descriptor = open(marker_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (descriptor >= 0) {
        ssize_t ignored = write(descriptor, line, length);
        (void)ignored;
        close(descriptor);
    }
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        if (crash_signals[index] != signal_number) continue;
        struct sigaction *before = &previous[index];
        if ((before->sa_flags & SA_SIGINFO) && before->sa_sigaction != NULL) {
            before->sa_sigaction(signal_number, info, context);
            return;
        }
        if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN && before->sa_handler != NULL) {
            before->sa_handler(signal_number);
            return;
        }
    }
    // No one else wants it: die of the signal, as the process would have without this handler.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

int crash_marker_install(const char *path) {
    size_t length = strlen(path);
    if (length >= sizeof marker_path) return -1;
    memcpy(marker_path, path, length + 1);
    for (size_t index = 0; index < SPARE_DESCRIPTOR_COUNT; index++) {
        if (spare_descriptors[index] < 0) spare_descriptors[index] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = crashed;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(crash_signals[index], &action, &previous[index]);
    }
    return 0;
}
