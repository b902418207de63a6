import DifferentialCore
import Dispatch
import Testing

/// Which lane TraceLog gives an event, the case of a handler inside a `sync` onto a library's queue included.
@Suite struct TraceLogTests {
    /// PromiseKit 8's `when` settles its promise inside `barrier.sync`, so an inline handler of that promise runs
    /// there, on the thread of the program's queue whose block settled the input. The log names that queue.
    @Test func anEventInsideASyncOntoAnotherQueueGoesToTheLaneOfTheQueueWhoseBlockCalledIt() {
        let log = TraceLog()
        let q1 = log.makeQueue("q1")
        let library = DispatchQueue(label: "library.barrier", attributes: .concurrent)
        log.beginStep(0)
        q1.async {
            log.record("before")
            library.sync(flags: .barrier) { log.record("inside") }
        }
        log.drainQueues()
        #expect(log.stepLines(count: 1) == [["q1 before", "q1 inside"]])
        log.finish()
    }

    /// Without an event of its own first, the queue's thread has not shown itself to be the queue's, and nothing in
    /// Dispatch tells the log: the event goes to the other lane (what harness 1 did for every such event).
    @Test func anEventInsideASyncBeforeTheQueuesThreadRecordedGoesToTheOtherLane() {
        let log = TraceLog()
        let q1 = log.makeQueue("q1")
        let library = DispatchQueue(label: "library.barrier", attributes: .concurrent)
        log.beginStep(0)
        q1.async { library.sync(flags: .barrier) { log.record("inside") } }
        log.drainQueues()
        #expect(log.stepLines(count: 1) == [["g inside"]])
        log.finish()
    }

    /// The queue's thread is its own only for the turn: once the turn is over, a `sync` from a block of the next turn
    /// needs an event of that turn first.
    @Test func theQueuesThreadIsKnownOnlyForTheTurn() {
        let log = TraceLog()
        let q1 = log.makeQueue("q1")
        let library = DispatchQueue(label: "library.barrier", attributes: .concurrent)
        log.beginStep(0)
        q1.async { log.record("first turn") }
        log.drainQueues()
        log.beginStep(1)
        q1.async { library.sync(flags: .barrier) { log.record("second turn") } }
        log.drainQueues()
        #expect(log.stepLines(count: 2) == [["q1 first turn"], ["g second turn"]])
        log.finish()
    }

    /// An event of the driver, and of a global queue's thread while a queue has its turn.
    @Test func theDriverAndOtherThreadsKeepTheirLanes() {
        let log = TraceLog()
        let q1 = log.makeQueue("q1")
        log.beginStep(0)
        log.record("driver")
        let done = DispatchSemaphore(value: 0)
        q1.async {
            log.record("queue")
            DispatchQueue.global().async {
                log.record("global")
                done.signal()
            }
            done.wait()
        }
        log.drainQueues()
        #expect(log.stepLines(count: 1) == [["d driver", "q1 queue", "g global"]])
        log.finish()
    }
}
