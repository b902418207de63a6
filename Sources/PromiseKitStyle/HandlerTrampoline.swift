// HandlerTrampoline.swift: per-thread bookkeeping that keeps long chains off the stack.
//
// Inline handlers (`on: nil`) run on the thread that seals a box, and each may seal the next box. Up to
// `maxInlineDepth` such runs nest normally (so a short `on: nil` chain still completes before `seal` returns, as in
// PromiseKit); deeper runs are queued and the outermost run on the thread drains the queue in a loop. Likewise the
// teardown of a pending chain: a box deallocated with handlers hands them to `bury`, and only the outermost `bury`
// on the thread releases them, one at a time.
//
// The price of queueing: a handler more than `maxInlineDepth` inline runs deep that blocks its thread (say with
// `wait()`) on a promise whose inline chain was queued on that same thread waits forever. Blocking inside an inline
// handler is a deadlock risk in PromiseKit too; hop to a queue (`on:`) before blocking.

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

/// The thread-local slot holding each thread's trampoline; the destructor releases it when the thread exits.
@usableFromInline let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin) || DARWIN_STANDINS
        let status = pthread_key_create(&key) { Unmanaged<HandlerTrampoline>.fromOpaque($0).release() }
    #else
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<HandlerTrampoline>.fromOpaque(raw).release()
        }
    #endif
    precondition(status == 0, "PromiseKitStyle: pthread_key_create failed")
    return key
}()

/// One queued inline run. A struct, because an array of bare closures stores them "maximally abstracted", which can
/// cost a reabstraction thunk (an allocation) per closure appended.
@usableFromInline
struct QueuedRun {
    @usableFromInline let run: () -> Void
    @inlinable init(_ run: @escaping () -> Void) { self.run = run }
}

/// One per thread, used only by its own thread.
@usableFromInline
final class HandlerTrampoline {
    @usableFromInline init() {}

    /// How many inline handler runs may nest on one thread before further runs are queued.
    @usableFromInline static let maxInlineDepth = 16

    // Only the owning thread touches these, so the dynamic exclusivity checks (two `swift_beginAccess` calls per
    // inline run) guard nothing.
    @usableFromInline @exclusivity(unchecked) var depth = 0
    @usableFromInline @exclusivity(unchecked) var queued: [QueuedRun] = []
    /// An empty array whose storage the next drain reuses, so queueing allocates nothing in the long run.
    var spare: [QueuedRun] = []
    var graveyard: [Any] = []
    var burying = false

    /// Calls `body` with the calling thread's trampoline (without retaining it: the thread owns it).
    @inlinable
    static func withCurrent<V>(_ body: (HandlerTrampoline) -> V) -> V {
        let raw: UnsafeMutableRawPointer
        if let existing = pthread_getspecific(trampolineKey) {
            raw = existing
        } else {
            raw = makeCurrent()
        }
        return Unmanaged<HandlerTrampoline>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `handlers` with `value` now, or queues the run if this thread is already `maxInlineDepth` runs deep.
    @inlinable
    static func run<R>(_ handlers: Handlers<R>, with value: R) {
        withCurrent { $0.run(handlers, with: value) }
    }

    /// See the instance method.
    static func bury<R>(_ handlers: inout Handlers<R>) {
        withCurrent { $0.bury(&handlers) }
    }

    @inlinable
    func run<R>(_ handlers: Handlers<R>, with value: R) {
        guard depth < HandlerTrampoline.maxInlineDepth else {
            queued.append(QueuedRun { handlers.run(value) })
            return
        }
        depth += 1
        handlers.run(value)
        if depth == 1 && !queued.isEmpty { drainQueued() }
        depth -= 1
    }

    /// The outermost run drains what deeper runs queued; those may queue more, so loop.
    @usableFromInline
    func drainQueued() {
        // Two arrays take turns: the batch being run and `queued` collecting what it queues. Both keep their storage
        // (up to a bound), so a long chain does not allocate an array per batch.
        var batch: [QueuedRun] = []
        swap(&batch, &spare)
        while !queued.isEmpty {
            swap(&batch, &queued)
            for index in batch.indices { batch[index].run() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
        spare = batch
    }

    /// Creates the calling thread's trampoline and stores it in the thread-local slot.
    @usableFromInline
    static func makeCurrent() -> UnsafeMutableRawPointer {
        let raw = Unmanaged.passRetained(HandlerTrampoline()).toOpaque()
        pthread_setspecific(trampolineKey, raw)
        return raw
    }

    /// Takes `handlers` out of a dying box and releases them iteratively: releasing one may deallocate the next
    /// pending box, whose own `bury` only appends while the outermost call is still looping.
    private func bury<R>(_ handlers: inout Handlers<R>) {
        graveyard.append(handlers.take())  // the box's list is now empty: the graveyard holds the only reference
        guard !burying else { return }
        burying = true
        while graveyard.popLast() != nil {}
        burying = false
    }
}
