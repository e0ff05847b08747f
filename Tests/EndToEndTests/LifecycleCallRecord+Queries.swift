/*
Abstract:
Picking the records of one entry point, content request or download out of what the test processes recorded.
*/

import LifecycleTestKit

extension [LifecycleCallRecord] {
    /// The records of one entry point, in order.
    func calls(_ entryPoint: String) -> [LifecycleCallRecord] {
        filter { $0.entryPoint == entryPoint }
    }

    /// The `downloads` records of one request kind (1 install, 2 update, 3 periodic).
    func contentRequests(_ kind: Int) -> [LifecycleCallRecord] {
        filter { $0.entryPoint == "downloads" && $0.request == kind }
    }

    /// The identifiers of the downloads delivered through one entry point, such as `finished`.
    func downloads(_ entryPoint: String) -> Set<String> {
        Set(calls(entryPoint).compactMap(\.download))
    }
}
