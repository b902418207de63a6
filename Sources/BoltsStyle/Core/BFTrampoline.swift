// BFTrampoline.swift: the per-thread trampoline that keeps long chains off the stack.
//
// Executors run continuations inline on the completing thread, and each may complete the next task, one call deeper.
// The trampoline counts that nesting (`depth`), and apart the nesting of `.default`'s own runs (`defaultDepth`).
// `BFExecutor.default` runs inline while fewer than `defaultDepthLimit` of its runs are nested on the thread
// (Bolts-Swift's own stack guard, which counts only those) and otherwise hops to a global queue;
// `BFExecutor.immediate` and `.mainThread` (on the main thread) run inline while the thread is less than
// `immediateDepthLimit` deep. Past that limit `.immediate` enqueues the work instead, and a task completed that deep
// enqueues the running of its callbacks (the state machine's `.enqueueDrain`, then `resumeDrain`). The outermost
// inline run on the thread drains what was enqueued before it returns, so a chain of a million `.immediate`
// continuations runs as a loop instead of a million nested calls.
//
// Teardown is flattened the same way: a pending task dropped with callbacks hands them to `release(_:)`, and only
// the outermost release on the thread lets them go, one at a time (a dropped pending chain would otherwise be freed
// by a million nested `deinit`s).
//
// The state lives in memory owned by a pthread key (freed when the thread exits) and a trampoline is a pointer to it:
// finding the calling thread's trampoline costs no reference counting.

import Foundation

#if DARWIN_STANDINS
    import DarwinStandIns  // Apple's declarations for the Darwin branch below (Package.swift, trait DarwinStandIns)
#endif

/// One piece of work kept for the outermost inline run. A struct, because an array of bare closures stores them
/// "maximally abstracted": appending a closure would allocate a reabstraction thunk around it.
@usableFromInline
struct BFEnqueuedWork {
    @usableFromInline let run: () -> Void

    @inlinable
    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}

/// The calling thread's trampoline: a handle on state that only that thread touches.
@usableFromInline
struct BFTrampoline {
    /// How many `.default` runs may nest on a thread: the next one hops to a global queue. Bolts-Swift's executor
    /// hops once more than 20 are nested, so the 21st still runs inline; it counts `.default` runs only.
    @usableFromInline static let defaultDepthLimit = 21
    /// How deep `.immediate` may run inline before it enqueues work on the trampoline.
    @usableFromInline static let immediateDepthLimit = 64

    /// One thread's state.
    @usableFromInline
    struct State {
        /// Inline runs currently nested on the thread.
        @usableFromInline var depth = 0
        /// Of those, the `.default` executor's own.
        @usableFromInline var defaultDepth = 0
        /// Work kept for the outermost inline run, in order.
        @usableFromInline var enqueued: [BFEnqueuedWork] = []
        /// An empty array whose storage the next drain reuses, so enqueueing allocates nothing in the long run.
        var spare: [BFEnqueuedWork] = []
        /// Values whose release waits for the outermost release on the thread.
        var released: [Any] = []
        var releasing = false
    }

    /// Which thread's trampoline this is: the address of the thread's state, compared and never followed. A task
    /// keeps the token of the thread draining it (`BFTaskStateMachine`), to know a registration from that thread.
    @usableFromInline
    struct Token: Equatable {
        /// The address of the thread's `State`.
        @usableFromInline let address: UnsafeMutableRawPointer

        /// The token of the thread whose state is at `state`.
        @inlinable
        init(_ state: UnsafeMutablePointer<State>) {
            address = UnsafeMutableRawPointer(state)
        }

        /// Whether both tokens name the same thread.
        @inlinable
        static func == (lhs: Token, rhs: Token) -> Bool {
            lhs.address == rhs.address
        }
    }

    @usableFromInline let state: UnsafeMutablePointer<State>
    /// Whether a run through this handle is one of `.default`'s (`BFExecutor.inlineTrampoline()` says).
    @usableFromInline let countsAsDefault: Bool

    @inlinable
    init(_ state: UnsafeMutablePointer<State>, countsAsDefault: Bool = false) {
        self.state = state
        self.countsAsDefault = countsAsDefault
    }

    /// This handle, its runs counted as `.default`'s.
    @inlinable
    var asDefault: BFTrampoline { BFTrampoline(state, countsAsDefault: true) }

    /// The thread-local slot holding each thread's state; the destructor frees it when the thread exits.
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin) || DARWIN_STANDINS
            let status = pthread_key_create(&key) { BFTrampoline.free($0) }
        #else
            let status = pthread_key_create(&key) { raw in
                if let raw { BFTrampoline.free(raw) }
            }
        #endif
        precondition(status == 0, "BoltsStyle: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's trampoline, created on first use.
    @inlinable
    static var current: BFTrampoline {
        if let raw = pthread_getspecific(key) {
            return BFTrampoline(raw.assumingMemoryBound(to: State.self))
        }
        return makeCurrent()
    }

    /// The token of this thread's trampoline.
    @inlinable
    var token: Token { Token(state) }

    /// How many inline runs are nested on the thread now.
    @inlinable
    var depth: Int { state.pointee.depth }

    /// How many of them are `.default`'s.
    @inlinable
    var defaultDepth: Int { state.pointee.defaultDepth }

    /// Runs `work` now, one inline run deeper; the outermost run on the thread then drains what was enqueued
    /// meanwhile. The caller has checked the depth against its executor's limit (`BFExecutor.inlineTrampoline()`),
    /// and enqueues or hops instead past it.
    @inlinable
    func run(_ work: () -> Void) {
        state.pointee.depth += 1
        if countsAsDefault { state.pointee.defaultDepth += 1 }
        work()
        if state.pointee.depth == 1 && !state.pointee.enqueued.isEmpty { drain() }
        state.pointee.depth -= 1
        if countsAsDefault { state.pointee.defaultDepth -= 1 }
    }

    /// Keeps `work` for the outermost inline run on this thread to run.
    @inlinable
    func enqueue(_ work: @escaping () -> Void) {
        state.pointee.enqueued.append(BFEnqueuedWork(work))
    }

    /// Runs the enqueued work, in order, and what it enqueues in turn, until none is left.
    @usableFromInline
    func drain() {
        // Two arrays take turns: the batch being run and `enqueued` collecting what it enqueues. Both keep their
        // storage (up to a bound), so a long chain does not allocate an array per batch.
        var batch: [BFEnqueuedWork] = []
        swap(&batch, &state.pointee.spare)
        while !state.pointee.enqueued.isEmpty {
            swap(&batch, &state.pointee.enqueued)
            for index in batch.indices { batch[index].run() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
        state.pointee.spare = batch
    }

    /// Drains the enqueued work before the thread blocks in `waitUntilCompleted`: it might be what completes the
    /// awaited task, and would otherwise wait forever.
    func drainBeforeBlocking() {
        guard !state.pointee.enqueued.isEmpty else { return }
        let saved = state.pointee.depth
        state.pointee.depth = 1  // as in the outermost inline run: work run by the drain does not drain again
        drain()
        state.pointee.depth = saved
    }

    /// Keeps `value` (the callbacks of a dying task) alive until the outermost release on this thread lets it go:
    /// letting go of one may deallocate the next pending task, whose own release only appends while the outermost
    /// one is still looping.
    func release(_ value: consuming Any) {
        if state.pointee.releasing {
            state.pointee.released.append(value)
            return
        }
        state.pointee.releasing = true
        do { _ = consume value }
        while let next = state.pointee.released.popLast() {
            _ = consume next
        }
        state.pointee.releasing = false
    }

    /// Creates the calling thread's state and stores it in the thread-local slot.
    @usableFromInline
    static func makeCurrent() -> BFTrampoline {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_setspecific(key, state)
        return BFTrampoline(state)
    }

    /// Frees a thread's state when the thread exits.
    private static func free(_ raw: UnsafeMutableRawPointer) {
        let state = raw.assumingMemoryBound(to: State.self)
        state.deinitialize(count: 1)
        state.deallocate()
    }
}
