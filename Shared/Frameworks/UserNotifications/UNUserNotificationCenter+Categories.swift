/*
Abstract:
The app's notification categories: set once at launch, read back in this process or the next.
*/

import BackgroundAssetsIPC
import Foundation

extension UNUserNotificationCenter {
    /// Registers the app's notification categories, replacing those registered before.
    ///
    /// Call it at launch, before scheduling notifications whose content names a category. The
    /// device keeps them, so a later process reads them back with `notificationCategories()`.
    /// - Note: A set over the device's limits (64 categories, 10 actions each, 1,024 bytes a text)
    ///   is not kept; the reason goes to standard error, since Apple's method reports nothing.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        let descriptors = categories.map(\.descriptor).sorted { $0.identifier < $1.identifier }
        if let problem = NotificationCategoryDescriptor.problem(in: descriptors) {
            service.warn(problem)
            return
        }
        // Apple's method returns at once; the set is answered from here, and reaches the device
        // before any request the app makes after this call.
        registeredCategories.withLock { $0 = descriptors }
        service.setCategories(descriptors)
    }

    /// Fetches the app's registered notification categories.
    public func notificationCategories() async -> Set<UNNotificationCategory> {
        let descriptors: [NotificationCategoryDescriptor]
        if let registered = registeredCategories.withLock({ $0 }) {
            descriptors = registered
        } else {
            descriptors = await service.categories()
        }
        return Set(descriptors.map(UNNotificationCategory.init))
    }

    /// Fetches the app's registered notification categories; the handler receives them.
    public func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        Task { completionHandler(await notificationCategories()) }
    }
}
