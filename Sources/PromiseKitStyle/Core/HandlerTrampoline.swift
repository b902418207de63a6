// HandlerTrampoline.swift: the per-thread trampoline that keeps long chains off the stack.
//
// Inline handlers (`on: nil`) run on the thread that seals a box, and each may seal the next box. Up to
// `inlineDepthLimit` such runs nest normally (so a short `on: nil` chain still completes before `seal` returns, as in
// PromiseKit); `run(_:with:)` enqueues deeper runs, and the outermost run on the thread drains them in a loop. A box
// sealed that deep enqueues the running of its handlers itself (`.enqueueDrain`, BoxStateMachine.swift). The teardown
// of a pending chain is flattened the same way: a box deallocated with handlers hands them to `release(_:)`, and only
// the outermost release on the thread lets them go, one at a time. A trampoline's `Token` names its thread: the box's
// state machine records with it which thread is draining the box.
//
// The price of enqueueing: a handler more than `inlineDepthLimit` inline runs deep that blocks its thread (say with
// `wait()`) on a promise whose inline chain was enqueued on that same thread waits forever. Blocking inside an inline
// handler is a deadlock risk in PromiseKit too; hop to a queue (`on:`) before blocking.
//
// The state lives in memory owned by a pthread key (freed when the thread exits) and a trampoline is a pointer to it:
// finding the calling thread's trampoline costs no reference counting.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if DARWIN_STANDINS
    import DarwinStandIns  // Apple's declarations for the Darwin branches below (Package.swift, trait DarwinStandIns)
#endif

/// One run kept for the outermost frame. A struct, because an array of bare closures stores them "maximally
/// abstracted", which can cost a reabstraction thunk (an allocation) per closure appended.
@usableFromInline
struct EnqueuedRun {
    /// The work to run.
    @usableFromInline let run: () -> Void
    /// Keeps `run` for later.
    @inlinable init(_ run: @escaping () -> Void) { self.run = run }
}

/// The calling thread's trampoline: a handle on state that only that thread touches.
@usableFromInline
struct HandlerTrampoline {
    /// How many inline handler runs may nest on one thread before further runs are enqueued.
    @usableFromInline static let inlineDepthLimit = 16

    /// One thread's state.
    @usableFromInline
    struct State {
        /// How many inline handler runs are nested on the thread now.
        @usableFromInline var depth = 0
        /// Runs kept for the outermost frame, in order.
        @usableFromInline var enqueued: [EnqueuedRun] = []
        /// An empty array whose storage the next drain reuses, so enqueueing allocates nothing in the long run.
        var spare: [EnqueuedRun] = []
        /// Values whose release waits for the outermost release on the thread.
        var released: [Any] = []
        var releasing = false
    }

    /// Which thread a trampoline belongs to, as a box's state machine records the thread draining it: the address of
    /// the thread's state, which no other live thread shares. Compared only, never dereferenced.
    @usableFromInline
    struct Token: Equatable {
        /// The address of the thread's `State`.
        @usableFromInline let address: UnsafeRawPointer

        /// The token of the trampoline whose state is at `address`.
        @inlinable init(_ address: UnsafeRawPointer) { self.address = address }

        /// Whether both tokens name the same thread.
        @inlinable static func == (lhs: Token, rhs: Token) -> Bool { lhs.address == rhs.address }
    }

    /// The thread's state, owned by the thread-local slot.
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// The trampoline whose state is `state`.
    @inlinable init(_ state: UnsafeMutablePointer<State>) { self.state = state }

    /// The token of this trampoline's thread.
    @inlinable var token: Token { Token(state) }

    /// The thread-local slot holding each thread's state; the destructor frees it when the thread exits.
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin) || DARWIN_STANDINS
            let status = pthread_key_create(&key) { HandlerTrampoline.free($0) }
        #else
            let status = pthread_key_create(&key) { raw in
                if let raw { HandlerTrampoline.free(raw) }
            }
        #endif
        precondition(status == 0, "PromiseKitStyle: pthread_key_create failed")
        return key
    }()

    /// The calling thread's trampoline, created on first use.
    @inlinable static var current: HandlerTrampoline {
        if let raw = pthread_getspecific(key) {
            return HandlerTrampoline(raw.assumingMemoryBound(to: State.self))
        }
        return makeCurrent()
    }

    /// Whether the thread is `inlineDepthLimit` inline runs deep: a run started now is enqueued instead.
    @inlinable var isAtDepthLimit: Bool { state.pointee.depth >= HandlerTrampoline.inlineDepthLimit }

    /// Runs `handlers` with `value` now, or enqueues the run if the thread is at the depth limit. The outermost run
    /// then drains what the runs inside it enqueued. Always inlined: `PMKBox.drain` calls it twice, for the first
    /// batch and for the next ones, and the optimizer would otherwise call it out of line.
    @inlinable @inline(__always)
    func run<R>(_ handlers: Handlers<R>, with value: R) {
        guard !isAtDepthLimit else {
            enqueue { handlers.run(value) }
            return
        }
        state.pointee.depth += 1
        handlers.run(value)
        if state.pointee.depth == 1 && !state.pointee.enqueued.isEmpty { drain() }
        state.pointee.depth -= 1
    }

    /// Keeps `work` for the outermost run on this thread to run.
    @inlinable
    func enqueue(_ work: @escaping () -> Void) {
        state.pointee.enqueued.append(EnqueuedRun(work))
    }

    /// Runs the enqueued work, in order, and what it enqueues in turn, until none is left.
    @usableFromInline
    func drain() {
        // Two arrays take turns: the batch being run and `enqueued` collecting what it enqueues. Both keep their
        // storage (up to a bound), so a long chain does not allocate an array per batch.
        var batch: [EnqueuedRun] = []
        swap(&batch, &state.pointee.spare)
        while !state.pointee.enqueued.isEmpty {
            swap(&batch, &state.pointee.enqueued)
            for index in batch.indices { batch[index].run() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
        state.pointee.spare = batch
    }

    /// Keeps `value` (the handlers of a dying box) alive until the outermost release on this thread lets it go:
    /// letting go of one may deallocate the next pending box, whose own release only appends while the outermost
    /// one is still looping.
    func release(_ value: consuming Any) {
        state.pointee.released.append(value)
        guard !state.pointee.releasing else { return }
        state.pointee.releasing = true
        while state.pointee.released.popLast() != nil {}
        state.pointee.releasing = false
    }

    /// Creates the calling thread's state and stores it in the thread-local slot.
    @usableFromInline
    static func makeCurrent() -> HandlerTrampoline {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_setspecific(key, state)
        return HandlerTrampoline(state)
    }

    /// Frees a thread's state when the thread exits.
    private static func free(_ raw: UnsafeMutableRawPointer) {
        let state = raw.assumingMemoryBound(to: State.self)
        state.deinitialize(count: 1)
        state.deallocate()
    }
}
