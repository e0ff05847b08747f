/*
Abstract:
Tests that work run on the caller's thread keeps the order of the work submitted to the thread.
*/

import Foundation
import ServiceClient
import Synchronization
import TestSupport
import Testing

@Suite("A worker thread and work run in its place")
struct WorkerThreadTests {
    @Test("The thread carries its name where the kernel shows it, a long name cut to the kernel's 15 bytes")
    func namedForTheKernel() throws {
        for (name, shown) in [("ba-delegate", "ba-delegate"), ("BackgroundAssets.delegate", "BackgroundAsset"), ("déjà-vu-délégué", "déjà-vu-dél")] {
            let worker = WorkerThread(name: name)
            let comm = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            worker.async {
                comm.withLock { $0 = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
                done.signal()
            }
            done.wait()
            #expect(comm.withLock { $0 } == shown + "\n", "\(name)")
            #expect(Thread.kernelName(name) == shown)
            #expect(Thread.kernelName(name).utf8.count <= 15)
        }
    }

    @Test("With nothing waiting, the work runs on the calling thread, and what it returns is the answer")
    func runsHereWhenIdle() throws {
        let worker = WorkerThread(name: "test.worker")
        let caller = pthread_self()
        var ranOn: pthread_t?
        #expect(worker.runHereIfIdle {
            ranOn = pthread_self()
            return true
        })
        #expect(try pthread_equal(#require(ranOn), caller) != 0)
        #expect(!worker.runHereIfIdle { false }, "work that could not be done here says so")
    }

    @Test("While submitted work waits or runs, nothing runs in its place")
    func refusedWhileBusy() throws {
        let worker = WorkerThread(name: "test.worker")
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        worker.async { release.wait() }
        worker.async { ended.signal() }
        var ran = false
        #expect(!worker.runHereIfIdle {
            ran = true
            return true
        })
        #expect(!ran)
        release.signal()
        ended.wait()
        try pollOnThisThread(until: { worker.runHereIfIdle { true } }, "the worker to be idle once its work ended")
    }

    @Test("Work submitted while work runs in its place waits for it: the order is the order of the calls")
    func submittedWorkWaits() throws {
        let worker = WorkerThread(name: "test.worker")
        let order = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        #expect(worker.runHereIfIdle {
            worker.async {
                order.withLock { $0.append("submitted") }
                done.signal()
            }
            // Long enough for the thread to take the submitted work, if it did not wait.
            Thread.sleep(forTimeInterval: 0.05)
            order.withLock { $0.append("in its place") }
            return true
        })
        done.wait()
        #expect(order.withLock { $0 } == ["in its place", "submitted"])
    }
}
