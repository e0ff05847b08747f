/*
Abstract:
Moves an app that a person started from its build folder into its installed bundle, before main.
*/

#ifndef C_INSTALLED_BUNDLE_LAUNCH_H
#define C_INSTALLED_BUNDLE_LAUNCH_H

/// Implemented in Swift by the BackgroundAssets module: the executable inside this process's
/// installed app bundle that it should become, as a string to free, or NULL to carry on as it is.
char *_Nullable BackgroundAssets_installedBundleExecutable(void);

#endif
