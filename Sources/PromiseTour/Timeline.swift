// The tour's timeline: every step of every scenario, with the thread and the dispatch queue it ran on and the time
// since the run started, so that a reader sees which continuation ran inline (same thread as the step before it) and
// which one hopped to a queue.
//
// Threads are numbered in the order they first appear (`T1`, `T2`, ...; the process's main thread is `main`). The queue
// is read with libdispatch's `dispatch_queue_get_label(NULL)` (CurrentQueueName.swift). Guarded by an `NSLock`, which
// the thread sanitizer understands.

import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of the tour's timeline.
public struct TimelineEntry: Sendable, CustomStringConvertible {
    /// The scenario number, 1 to 8.
    public let scenario: Int
    /// The style that ran the step: `BoltsStyle`, `PromiseKitStyle`, `FBLStyle`, `async/await` (or `GCD`).
    public let style: String
    /// What happened.
    public let step: String
    /// The thread the step ran on: `main`, or `T1`, `T2`, ... in order of first appearance.
    public let thread: String
    /// The label of the dispatch queue the step ran on, shortened (`main queue`, `global`, `network`, ...).
    public let queue: String
    /// Milliseconds since the start of this scenario's run in this style.
    public let elapsedMilliseconds: Double

    /// The entry as one line of the printed timeline.
    public var description: String {
        let time = String(format: "%7.1f ms", elapsedMilliseconds)
        return "\(time)  \(pad(thread, 5))  \(pad(queue, 22))  \(step)"
    }
}

/// Pads `text` with spaces to `width` characters.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// A thread-safe list of timeline entries shared by every run of one tour.
public final class Timeline: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [TimelineEntry] = []
    private var threadNumbers: [UInt: Int] = [:]

    /// An empty timeline.
    public init() {}

    /// Every entry recorded so far, in the order they were recorded.
    public var all: [TimelineEntry] {
        lock.withLock { entries }
    }

    /// Records `step` on the calling thread and queue.
    func record(scenario: Int, style: String, step: String, since start: DispatchTime) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
        let queue = currentQueueName()
        let isMain = Thread.isMainThread
        let id = currentThreadID()
        lock.withLock {
            let thread: String
            if isMain {
                thread = "main"
            } else if let number = threadNumbers[id] {
                thread = "T\(number)"
            } else {
                let number = threadNumbers.count + 1
                threadNumbers[id] = number
                thread = "T\(number)"
            }
            entries.append(
                TimelineEntry(
                    scenario: scenario, style: style, step: step, thread: thread, queue: queue,
                    elapsedMilliseconds: elapsed
                )
            )
        }
    }
}

/// An identifier of the calling thread, unique among the threads alive.
func currentThreadID() -> UInt {
    #if canImport(Glibc)
        UInt(pthread_self())  // glibc's pthread_t is an integer
    #else
        UInt(bitPattern: pthread_self())  // a pointer on Darwin and musl
    #endif
}
