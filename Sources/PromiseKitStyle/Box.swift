// Box.swift: the core of PromiseKitStyle. Read this file first.
//
// THE MECHANISM: a handler list guarded by a barrier.
//
// Every `Promise` and `Guarantee` is a `PMKBox` (the class below): pending, it keeps the handlers that `pipe(to:)`
// registered; sealed, it keeps the value (`R` is `Result<T>` for a promise, `T` for a guarantee) forever. PromiseKit 8
// guards the same state with a concurrent `DispatchQueue` per promise: reads are `sync`, writes
// `sync(flags: .barrier)`. This box keeps those two calls and their meaning,
//
//     barrier.sync { sealed }                       // a read: many readers may be inside at once (on Linux)
//     barrier.sync(flags: .barrier) { ... }         // a write: runs alone, after the reads in progress drain
//
// but `Barrier` is a lock of the box's own, not a queue: creating a queue per promise is most of what a pending
// promise costs on Linux, and a shared pool of queues still pays a barrier round trip per write and makes unrelated
// promises wait for each other (Benchmarks/NOTES.md, "Why PromiseKitStyle's barrier is not a `DispatchQueue`", has
// the measurements). The code therefore reads like PromiseKit's `EmptyBox`, and the tests hold a `QueueBox` spelled
// with a real DispatchQueue for comparison.
//
// `pipe(to:)` is a write: it appends the handler, or, if the box is sealed, takes the value and calls the handler
// after leaving the barrier. `seal(_:)` is a write: it stores the value and swaps the handler list out in one step;
// the sealing thread then runs the handlers OUTSIDE the barrier. A handler may register on this very box, read it, or
// seal another box: inside the barrier any of those would deadlock, and a slow handler would stall every reader.
//
// ORDER. Until the sealing thread has run every handler it swapped out, the box is "draining": a handler piped
// meanwhile (by a handler, or by another thread) is appended as if the box were pending, and the sealing thread swaps
// it out and runs it next. Otherwise it could run at once and overtake handlers registered before it, and handlers
// sent to one serial queue would arrive out of order (Promises/A+ 2.2.6; the conformance suite catches it).
// (PromiseKit's `EmptyBox` has that race; its FIXME in `seal` names it.)
//
// INVARIANTS.
// 1. `isSealed` goes from false to true once, in a write, together with `storage`; neither changes afterwards, so a
//    value read once is the value for good. Sealing again changes nothing and returns false (the public resolvers
//    report it, see `PMKDoubleResolution`).
// 2. `handlers` is non-empty only while pending or draining; once a sealed box has drained, nothing is appended again.
// 3. Every piped handler runs exactly once, with the sealed value, in the order piped; a box deallocated while
//    pending runs none and releases them (iteratively, see `deinit`).
// 4. No handler and no user code runs inside the barrier: a write only moves the value and the handler list.
// 5. Inline handler runs nest at most `HandlerTrampoline.maxInlineDepth` deep on one thread (see STACK DEPTH).
//
// WHAT IS BEHIND THE TWO CALLS: `Barrier` (Barrier.swift), a different lock per platform.
//
// Promise and Guarantee inherit from the box (one object per promise, not two) and `Resolver` is a struct, so a
// pending promise with one handler allocates the promise and the handler's closure (and on Apple platforms the
// barrier's `os_unfair_lock`) and nothing else: no DispatchQueue, lock object or array (an array only for a second
// handler).
//
// INLINABLE HOT PATH. A user's release build (SwiftPM's `-c release`: whole-module, no `-cross-module-optimization`)
// sees only this module's interface, so the barrier, the handler list, `pipe`/`seal`, `then`/`map`/`done`, `pending`
// and `Resolver.fulfill` are `@inlinable`: the client specializes them for its `T`, and the closure `done` registers
// captures nothing the optimizer cannot keep in one context (B5 measures that path). The fields touched under the
// barrier are `@exclusivity(unchecked)`: the barrier already makes access exclusive.
//
// NO GENERIC METADATA IN DEINIT. `deinit` is one unspecialized function for every `R`; a stored `R?` would make it
// look up `Optional<R>`'s metadata for each box freed. The sealed value is therefore kept as raw words
// (`SealedStorage`) next to `isSealed`, and destroyed with `R`'s own value witness. The stored properties are `final`,
// so the client's inlined code reads them directly instead of through the vtable. A handler that hops to a queue hands
// Dispatch one block converted from the handler's closure literal (`DispatchQueue.dispatch`). (Benchmarks/NOTES.md,
// "What the performance passes changed", has what each of these saved.)
//
// STACK DEPTH. A handler registered with `on: nil` runs inline on the thread that seals, and may seal the next
// promise, whose inline handlers seal the next... `HandlerTrampoline` counts that nesting per thread and, past a
// small depth, queues the remaining runs for the outermost run on the same thread to drain in a loop. Tearing down
// a long pending chain is flattened the same way (see `PMKBox.deinit`).
//
// CONCURRENCY POLICY. As in PromiseKit, user closures are plain `@escaping` (not `@Sendable`) and values are
// unconstrained `T`, so closures and values written for PromiseKit need not be `Sendable` in Swift 6 mode. The
// promise types are `@unchecked Sendable`: the barrier makes their state thread-safe. Closures cross threads only
// inside this module (for instance in `UncheckedSendable` when a handler hops to a DispatchQueue).

/// The handlers of a pending box: the first one inline, more in an array allocated only for a second handler.
@usableFromInline
struct Handlers<R> {
    @usableFromInline var first: ((R) -> Void)?
    @usableFromInline var more: [(R) -> Void]?

    @inlinable init() {}

    @inlinable init(_ handler: @escaping (R) -> Void) { first = handler }

    @inlinable var isEmpty: Bool { first == nil }

    /// How many handlers are waiting (for `debugDescription`).
    var count: Int { first == nil ? 0 : 1 + (more?.count ?? 0) }

    @inlinable mutating func append(_ handler: @escaping (R) -> Void) {
        if first == nil {
            first = handler
        } else if more == nil {
            more = [handler]
        } else {
            more!.append(handler)
        }
    }

    /// Returns the handlers and leaves this list empty.
    @inlinable mutating func take() -> Handlers<R> {
        var taken = Handlers()
        swap(&taken, &self)
        return taken
    }

    @inlinable func run(_ value: R) {
        first?(value)
        for handler in more ?? [] { handler(value) }
    }
}

/// Which `LogEvent` a box reports if it is deallocated while still pending.
@usableFromInline
enum PendingReport: UInt8 {
    case none, promise, guarantee
}

/// The state every ``Promise`` and ``Guarantee`` inherits: pending with its handlers, or sealed with a value
/// (`R` is ``Result`` for a promise, `T` for a guarantee). All its members are internal; it is public only
/// because the public promise types inherit from it, which saves one allocation per promise.
public class PMKBox<R>: @unchecked Sendable {
    @usableFromInline final let barrier = Barrier()
    /// Whether the box is sealed; the value is then in `storage`. Written once, under the barrier.
    @usableFromInline @exclusivity(unchecked) final var isSealed = false
    /// The sealed value as raw words (see `SealedStorage`: no generic metadata needed to free the box).
    @usableFromInline @exclusivity(unchecked) final var storage = SealedStorage()
    @usableFromInline @exclusivity(unchecked) final var handlers = Handlers<R>()  // only while pending or draining
    /// Whether the sealing thread is still running handlers; handlers piped meanwhile join `handlers`.
    @usableFromInline @exclusivity(unchecked) final var draining = false
    @usableFromInline final let report: PendingReport

    /// A pending box.
    @usableFromInline init(report: PendingReport = .none) { self.report = report }

    /// A box sealed from the start (`Promise.value`, `Promise(error:)`): no handler is ever stored.
    @usableFromInline init(sealed value: R) {
        report = .none
        withUnsafeMutablePointer(to: &storage) { SealedStorage.put(value, into: $0) }
        isSealed = true
    }

    /// The sealed value, or nil while pending. Read it under the barrier.
    @inlinable final var sealed: R? {
        guard isSealed else { return nil }
        return withUnsafeMutablePointer(to: &storage) { SealedStorage.valueAddress($0, R.self).pointee }
    }

    /// The sealed value, or nil while pending. A read.
    @inlinable final var sealedValue: R? { barrier.sync { sealed } }

    /// The sealed value, or nil and the number of handlers waiting, read in one step (for `debugDescription`).
    final func inspect() -> (sealed: R?, waiting: Int) {
        barrier.sync { (sealed, handlers.count) }
    }

    /// Registers `handler`; if the box is already sealed (and done draining), calls it now, outside the barrier.
    @inlinable final func pipe(_ handler: @escaping (R) -> Void) {
        let ready: R? = barrier.sync(flags: .barrier) {
            if let sealed, !draining { return sealed }
            handlers.append(handler)
            return nil
        }
        if let ready { HandlerTrampoline.run(Handlers(handler), with: ready) }
    }

    /// Seals the box with `value` and runs the handlers outside the barrier, then any piped while they ran.
    /// Returns false, changing nothing, if the box was already sealed.
    /// A box sealed on a thread already `maxInlineDepth` inline runs deep queues itself on the thread's trampoline
    /// (a closure capturing only the box: nothing is allocated) and its handlers run from there, in order.
    @inlinable @discardableResult
    final func seal(_ value: R) -> Bool {
        HandlerTrampoline.withCurrent { trampoline in
            let deep = trampoline.depth >= HandlerTrampoline.maxInlineDepth
            var queue = false
            let taken: Handlers<R>? = barrier.sync(flags: .barrier) {
                guard !isSealed else { return nil }
                withUnsafeMutablePointer(to: &storage) { SealedStorage.put(value, into: $0) }
                isSealed = true
                draining = !handlers.isEmpty
                queue = draining && deep
                return queue ? Handlers() : handlers.take()
            }
            guard let batch = taken else { return false }
            if queue {
                trampoline.queued.append(QueuedRun { self.runQueuedDrain() })
            } else {
                drain(batch, with: value, on: trampoline)
            }
            return true
        }
    }

    /// Runs `batch`, then the handlers piped while it ran, until none is left (and the box stops draining).
    @inlinable final func drain(_ batch: Handlers<R>, with value: R, on trampoline: HandlerTrampoline) {
        var batch = batch
        while !batch.isEmpty {
            trampoline.run(batch, with: value)
            batch = barrier.sync(flags: .barrier) {
                draining = !handlers.isEmpty
                return handlers.take()
            }
        }
    }

    /// Runs the handlers of a box whose sealing queued them on the trampoline.
    @usableFromInline final func runQueuedDrain() {
        let (value, batch) = barrier.sync(flags: .barrier) { (sealed!, handlers.take()) }
        HandlerTrampoline.withCurrent { drain(batch, with: value, on: $0) }
    }

    deinit {
        // No other reference exists, so no barrier is needed.
        if isSealed {
            withUnsafeMutablePointer(to: &storage) { SealedStorage.destroy($0, R.self) }
            return
        }
        switch report {
        case .none: break
        case .promise: conf.logHandler(.pendingPromiseDeallocated)
        case .guarantee: conf.logHandler(.pendingGuaranteeDeallocated)
        }
        // The handlers hold the next promises of the chain; releasing them here would recurse once per link.
        if !handlers.isEmpty { HandlerTrampoline.bury(&handlers) }
    }
}

/// Moves a non-Sendable value across threads inside this module, where the barrier or a queue orders the accesses.
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @inlinable init(_ value: Value) { self.value = value }
}

/// A value guarded by its own barrier: the bookkeeping of `when` and `race`.
final class Barriered<Value>: @unchecked Sendable {
    private let barrier = Barrier()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads under `sync`.
    func read<V>(_ body: (Value) -> V) -> V { barrier.sync { body(value) } }

    /// Writes under `sync(flags: .barrier)`.
    func write<V>(_ body: (inout Value) -> V) -> V { barrier.sync(flags: .barrier) { body(&value) } }
}
