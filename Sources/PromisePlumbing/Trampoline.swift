// Trampoline.swift: the per-thread trampoline that keeps long chains off the stack, the same plumbing in the three
// styles; each style has its own slot (its own state on each thread, `TrampolineSlot`) and its own depth limit.
//
// A style runs a callback inline on the thread that settles a promise, and that callback may settle the next promise,
// one call deeper. The trampoline counts that nesting (`depth`). Below its style's limit (a parameter of the calls
// that check it: `isAt(limit:)`, `runOrEnqueue(below:_:)`) a run happens at once (`run(_:)`); at the limit the style
// enqueues it instead (`enqueue(_:)`), and the outermost inline run on the thread drains what was enqueued, in order, before it returns: a chain of a million inline steps runs as a loop instead of a
// million nested calls. Where a style starts a run, and what it does at the limit, is the style's own (BoltsStyle's
// executors, PromiseKitStyle's handlers on `nil`, FBLStyle's inline observers).
//
// Teardown is flattened the same way: a pending promise freed with callbacks hands them to `release(_:)`, and only the
// outermost release on the thread lets them go, one at a time (a dropped pending chain would otherwise be freed by a
// million nested `deinit`s).
//
// The state lives in memory owned by the slot's pthread key (freed when the thread exits) and a trampoline is a
// pointer to it: finding the calling thread's trampoline costs no reference counting.

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
#if DARWIN_STANDINS
    import DarwinStandIns  // Apple's declarations for the Darwin branch below (Package.swift, trait DarwinStandIns)
#endif

/// One style's trampolines: the thread-local slot holding each thread's state for that style.
///
/// Each style keeps its own, so that its runs are counted against its own limit only: a style's callback that settles
/// another style's promise starts that style's count from its own state.
@usableFromInline
package struct TrampolineSlot: Sendable {
    /// The thread-local slot; its destructor frees a thread's state when the thread exits.
    @usableFromInline let key: pthread_key_t

    /// A slot of its own for a style; `style` names the module in a failure.
    package init(style: String) {
        var key = pthread_key_t()
        #if canImport(Darwin) || DARWIN_STANDINS
            let status = pthread_key_create(&key) { Trampoline.free($0) }
        #else
            let status = pthread_key_create(&key) { raw in
                if let raw { Trampoline.free(raw) }
            }
        #endif
        precondition(status == 0, "\(style): pthread_key_create failed (\(status))")
        self.key = key
    }

    /// The calling thread's trampoline, created on first use.
    @inlinable package var current: Trampoline {
        if let raw = pthread_getspecific(key) {
            return Trampoline(raw.assumingMemoryBound(to: Trampoline.State.self))
        }
        return makeCurrent()
    }

    /// Creates the calling thread's state and stores it in the slot.
    @usableFromInline func makeCurrent() -> Trampoline {
        let state = UnsafeMutablePointer<Trampoline.State>.allocate(capacity: 1)
        state.initialize(to: Trampoline.State())
        pthread_setspecific(key, state)
        return Trampoline(state)
    }
}

/// The calling thread's trampoline of one style: a handle on state that only that thread touches.
@usableFromInline
package struct Trampoline {
    /// One piece of work kept for the outermost inline run. A struct, because an array of bare closures stores them
    /// "maximally abstracted": appending a closure would allocate a reabstraction thunk around it.
    @usableFromInline
    struct EnqueuedWork {
        /// The work.
        @usableFromInline let run: () -> Void

        /// Keeps `run` for later.
        @inlinable init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// One thread's state.
    @usableFromInline
    package struct State {
        /// Inline runs currently nested on the thread.
        @usableFromInline var depth = 0
        /// Of those, the ones run with `runMarked`, counted apart (BoltsStyle's `.default` executor's own).
        @usableFromInline var markedDepth = 0
        /// Work kept for the outermost inline run, in order.
        @usableFromInline var enqueued: [EnqueuedWork] = []
        /// An empty array whose storage the next drain reuses, so enqueueing allocates nothing in the long run.
        var spare: [EnqueuedWork] = []
        /// Values whose release waits for the outermost release on the thread.
        var released: [Any] = []
        /// Whether a release is letting go of values on this thread now.
        var releasing = false

        /// The state of a thread that has run nothing yet.
        init() {}
    }

    /// Which thread a trampoline belongs to, as a state machine records the thread draining a promise: the address of
    /// the thread's state, which no other live thread shares. Compared only, never dereferenced.
    @usableFromInline
    package struct Token: Equatable {
        /// The address of the thread's `State`.
        @usableFromInline let address: UnsafeRawPointer

        /// The token of the thread whose state is at `address`.
        @inlinable package init(_ address: UnsafeRawPointer) { self.address = address }

        /// Whether both tokens name the same thread.
        @inlinable package static func == (lhs: Token, rhs: Token) -> Bool { lhs.address == rhs.address }
    }

    /// The thread's state, owned by the slot.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// The trampoline whose state is `state`.
    @inlinable init(_ state: UnsafeMutablePointer<State>) { self.state = state }

    /// The token of this trampoline's thread.
    @inlinable package var token: Token { Token(state) }

    /// How many inline runs are nested on the thread now.
    @inlinable package var depth: Int { state.pointee.depth }

    /// How many of them were marked.
    @inlinable package var markedDepth: Int { state.pointee.markedDepth }

    /// Whether `limit` inline runs (the style's depth limit) are nested on the thread: a run started now is to be
    /// enqueued instead.
    @inlinable package func isAt(limit: Int) -> Bool { state.pointee.depth >= limit }

    /// Runs `work` now, one inline run deeper; the outermost run on the thread then drains what was enqueued
    /// meanwhile. The caller has checked the depth against its limit, and enqueues instead past it.
    @inlinable package func run(_ work: () -> Void) {
        state.pointee.depth += 1
        work()
        if state.pointee.depth == 1 && !state.pointee.enqueued.isEmpty { runEnqueued() }
        state.pointee.depth -= 1
    }

    /// Runs `work` as `run(_:)` does, counting it in `markedDepth` too (BoltsStyle's `.default` runs).
    @inlinable package func runMarked(_ work: () -> Void) {
        state.pointee.markedDepth += 1
        run(work)
        state.pointee.markedDepth -= 1
    }

    /// Runs `work` now if fewer than `limit` inline runs are nested on the thread, and otherwise keeps it for the
    /// outermost run.
    @inlinable package func runOrEnqueue(below limit: Int, _ work: @escaping () -> Void) {
        if isAt(limit: limit) { enqueue(work) } else { run(work) }
    }

    /// Keeps `work` for the outermost inline run on this thread to run.
    @inlinable package func enqueue(_ work: @escaping () -> Void) {
        state.pointee.enqueued.append(EnqueuedWork(work))
    }

    /// Runs the enqueued work, in order, and what it enqueues in turn, until none is left.
    @usableFromInline func runEnqueued() {
        // Two arrays take turns: the batch being run and `enqueued` collecting what it enqueues. Both keep their
        // storage (up to a bound), so a long chain does not allocate an array per batch.
        var batch: [EnqueuedWork] = []
        swap(&batch, &state.pointee.spare)
        while !state.pointee.enqueued.isEmpty {
            swap(&batch, &state.pointee.enqueued)
            for index in batch.indices { batch[index].run() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
        state.pointee.spare = batch
    }

    /// Drains the enqueued work before the thread blocks waiting for a promise: the work might be what settles it,
    /// and would otherwise wait forever (BoltsStyle's `waitUntilCompleted`).
    package func runEnqueuedBeforeBlocking() {
        guard !state.pointee.enqueued.isEmpty else { return }
        let saved = state.pointee.depth
        state.pointee.depth = 1  // as in the outermost inline run: work run by the drain does not drain again
        runEnqueued()
        state.pointee.depth = saved
    }

    /// Keeps `value` (the callbacks of a dying promise) alive until the outermost release on this thread lets it go:
    /// letting go of one may free the next pending promise, whose own release only appends while the outermost one
    /// is still looping. The caller hands over the last reference (`consume`), or nothing is let go of here.
    package func release(_ value: consuming Any) {
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

    /// Frees a thread's state when the thread exits.
    static func free(_ raw: UnsafeMutableRawPointer) {
        let state = raw.assumingMemoryBound(to: State.self)
        state.deinitialize(count: 1)
        state.deallocate()
    }
}
