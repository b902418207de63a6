// TraceLog.swift: what a program's handlers record while it runs, lane by lane.
//
// A trace keeps, for each step of a program, the events of that step in the order each thread saw them: one lane for
// the driver (the thread that registers every handler and settles every pending promise), one for each of the
// program's named serial queues, and one for any other thread (a global queue). Only the order within a lane is
// compared: no program can rely on how two queues interleave. The "other" lane belongs to a concurrent queue, so
// its events are compared as a sorted list.
//
// The program's queues are suspended except while the driver drains them one at a time, between steps: a handler on
// a queue never runs while the driver is still settling, or while another queue runs. What would otherwise be a race
// between the driver and a queue (a handler on q1 registering on a promise the driver is still settling) has one
// outcome, the same on every run, on the original and on our style alike.
//
// A handler can run inside a `sync` onto a queue that is not the program's, called from a block of one of the
// program's queues (PromiseKit 8's `when` settles its promise inside `barrier.sync`, so an inline handler of that
// promise runs there). Dispatch then reports the library's queue as the current one, not the program's, and no
// public Dispatch call tells which queue's block a thread is running beneath a `sync` (the queue's label cannot tell
// a global queue's thread inside such a `sync` from a program queue's). The log names the program's queue whenever
// the thread has shown itself to be that queue's: while a queue has its turn, the thread that has recorded an event
// on it is its thread until the turn ends (libdispatch drains a serial queue's turn on one thread), so what that
// thread records inside a `sync` belongs to the queue too. An event of a thread that has not shown itself in this
// turn goes to the other lane, as one of a global queue's does.

import Foundation

/// The events of a running program, grouped by step and lane. Handlers record from any thread.
public final class TraceLog: @unchecked Sendable {
    /// The lane of the thread that runs the program's steps.
    public static let driverLane = "d"
    /// The lane of any thread that is neither the driver nor one of the program's queues.
    public static let otherLane = "g"

    private let lock = NSLock()
    private let driver = pthread_self()
    private let queueKey = DispatchSpecificKey<String>()
    private var step = 0
    private var steps: [[(lane: String, event: String)]] = [[]]
    private var count = 0
    /// The program's queue whose turn it is (`drainQueues`), if any.
    private var turn: String?
    /// The thread that has recorded an event on the queue whose turn it is, during that turn: the queue's thread.
    private var turnThread: pthread_t?

    /// A log whose driver is the calling thread.
    public init() {}

    private var queues: [DispatchQueue] = []

    /// A serial queue whose events go to the lane `name`. It starts suspended and runs only inside `drainQueues()`,
    /// one queue at a time, so that no two threads of the program ever run at once (see Quiescence).
    public func makeQueue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "differential.\(name)")
        queue.setSpecific(key: queueKey, value: name)
        queue.suspend()
        lock.lock()
        queues.append(queue)
        lock.unlock()
        return queue
    }

    /// Lets each of the program's queues run, alone and in the order they were made, exactly what it held when its
    /// turn came; then suspends it again. Called by the driver only.
    ///
    /// A marker block goes to the end of the queue while it is still suspended, and the queue suspends itself from
    /// that block: what its blocks enqueue on it while they run lands behind the marker and waits for the next pass,
    /// every time. (Enqueued after the resume, the marker would race with those blocks; suspended from the driver
    /// once the marker ran, the queue could start one of them first.)
    public func drainQueues() {
        lock.lock()
        let all = queues
        lock.unlock()
        let drained = DispatchSemaphore(value: 0)
        for queue in all {
            queue.async {
                queue.suspend()
                self.endTurn()
                drained.signal()
            }
            lock.lock()
            turn = queue.getSpecific(key: queueKey)
            turnThread = nil
            lock.unlock()
            queue.resume()
            drained.wait()
        }
    }

    private func endTurn() {
        lock.lock()
        turn = nil
        turnThread = nil
        lock.unlock()
    }

    deinit {
        for queue in queues { queue.resume() }  // libdispatch must not release a suspended queue
    }

    /// Ends the program: resumes its queues for good and waits until what was left on them has run (until passes
    /// over all of them record no new event twice in a row), so that those blocks let go of the promises and the
    /// interpreter they hold. The trace is taken before; what runs now is not part of it.
    public func finish() {
        lock.lock()
        let all = queues
        queues = []
        lock.unlock()
        for queue in all { queue.resume() }
        var quietPasses = 0
        while quietPasses < 2 {
            let before = eventCount
            for queue in all { queue.sync {} }
            quietPasses = eventCount == before ? quietPasses + 1 : 0
        }
    }

    /// The lane of the calling thread: the program's queue it is running a block of, else the queue whose turn it is
    /// if the thread has shown itself to be that queue's in this turn (it is inside a `sync` onto a library's queue,
    /// the file's header says why), else the driver's lane if it is the driver, else the other lane. The program's
    /// queue comes first because the driver itself may run a queue's blocks: libdispatch can hand a serial queue to a
    /// thread waiting in `sync` on it (as the driver does between steps). Called with `lock` held.
    private func laneOfCallingThread() -> String {
        let thread = pthread_self()
        if let queue = DispatchQueue.getSpecific(key: queueKey) {
            if queue == turn { turnThread = thread }
            return queue
        }
        if let turn, let turnThread, pthread_equal(turnThread, thread) != 0 { return turn }
        return pthread_equal(thread, driver) != 0 ? Self.driverLane : Self.otherLane
    }

    /// Records `event` in the calling thread's lane of the current step.
    public func record(_ event: String) {
        lock.lock()
        let lane = laneOfCallingThread()
        steps[step].append((lane, event))
        count += 1
        lock.unlock()
    }

    /// How many events have been recorded so far.
    public var eventCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    /// Starts the next step: events from now on belong to it.
    public func beginStep(_ index: Int) {
        lock.lock()
        while steps.count <= index { steps.append([]) }
        step = index
        lock.unlock()
    }

    /// Each step's events as lines `lane event`, grouped by lane (driver first, then the queues by name, then the
    /// other lane sorted), each lane in the order its thread recorded.
    public func stepLines(count: Int) -> [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<count).map { index in
            let events = index < steps.count ? steps[index] : []
            let lanes = Set(events.map(\.lane)).sorted { Self.laneOrder($0) < Self.laneOrder($1) }
            return lanes.flatMap { lane in
                var lines = events.filter { $0.lane == lane }.map { "\(lane) \($0.event)" }
                if lane == Self.otherLane { lines.sort() }
                return lines
            }
        }
    }

    private static func laneOrder(_ lane: String) -> String {
        lane == driverLane ? "0" : lane == otherLane ? "2" : "1" + lane
    }
}
