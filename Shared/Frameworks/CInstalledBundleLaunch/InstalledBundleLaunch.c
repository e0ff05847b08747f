/*
Abstract:
Moves an app that a person started from its build folder into its installed bundle, before main.
*/

#include "CInstalledBundleLaunch.h"

#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

// Foundation reads Bundle.main from the running executable's path, once. An app started from the
// build folder (swift run, .build/debug/wwdc-sessions) would find no Info.plist there, so before
// any of its code runs it replaces itself with the same executable inside its installed bundle,
// with the same arguments, environment and process identifier. It runs before main because app
// code may read Bundle.main before it ever calls the framework.
__attribute__((constructor)) static void relaunch_in_installed_bundle(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 1 || argv == NULL) return;
    char *executable = BackgroundAssets_installedBundleExecutable();
    if (executable == NULL) return;
    argv[0] = executable;
    execv(executable, argv);
    // Still here: the process carries on from its build folder, without its Info.plist.
    fprintf(stderr, "Could not start the installed app at %s (%s); running from the build folder instead.\n",
            executable, strerror(errno));
}
