// Barrier.swift: PromiseKitStyle's barrier, the lock behind `sync` (a read) and `sync(flags: .barrier)` (a write)
// that guards every box's state (see Box.swift), built on the shared primitives of PromisePlumbing (`Lock`, `Backoff`).
//
// Apple platforms: one `Lock` (an `os_unfair_lock`) for both calls, so readers take turns instead of overlapping. A waiter
// donates its priority to the owner, so a low-priority thread inside the barrier is never starved by a high-priority
// one waiting (the failure that retired `OSSpinLock`, which a spinning reader-writer word would repeat). Readers lose
// little by taking turns: a read looks at the phase, copies the value out and never runs a handler. The lock is
// allocated once per box (one allocation more per promise; Lock.swift says why).
//
// Linux (glibc or musl): a reader-writer lock made of one atomic word stored inline in the box: `n > 0` means n
// readers are inside, `-1` a writer; a reader enters by incrementing a non-negative word, a writer by swapping 0 for
// -1. A waiter tries its exchange only after a plain load has seen the word let it in, so that waiting threads share
// the word's cache line instead of taking it from each other on every try (the contended shape of B8, where every
// registration is a write, is where that shows). A waiter backs off as the shared lock's do (`Backoff`, Lock.swift in
// PromisePlumbing).
//
// Why not Synchronization.Mutex: docs/guide.md, "Why the locks are not Mutex".

import PromisePlumbing

#if !canImport(Darwin) && !DARWIN_STANDINS
    import Synchronization
#endif

#if canImport(Darwin) || DARWIN_STANDINS
    /// The barrier on Apple platforms: one `Lock`, taken by reads and writes alike.
    @usableFromInline
    struct Barrier: ~Copyable, Sendable {
        /// Exists only to spell a write `sync(flags: .barrier)`, PromiseKit's `DispatchQueue` call: the mechanism
        /// stays visible at every call site.
        @usableFromInline enum Flags {
            /// The only flag: the call is a write.
            case barrier
        }

        /// The lock both calls take.
        @usableFromInline let lock = Lock()

        /// A free barrier.
        @inlinable init() {}

        /// Runs `read` under the lock (readers take turns here; see the header).
        @inlinable func sync<V>(_ read: () -> V) -> V {
            lock.withLock(read)
        }

        /// Runs `write` under the lock, alone.
        @inlinable func sync<V>(flags: Flags, _ write: () -> V) -> V {
            lock.withLock(write)
        }
    }
#else
    /// A reader-writer barrier stored inline: `sync` admits concurrent readers, `sync(flags: .barrier)` one writer.
    @usableFromInline
    struct Barrier: ~Copyable {
        /// Exists only to spell a write `sync(flags: .barrier)`, PromiseKit's `DispatchQueue` call: the mechanism
        /// stays visible at every call site.
        @usableFromInline enum Flags {
            /// The only flag: the call is a write.
            case barrier
        }

        /// `0`: free; `n > 0`: n readers inside; `-1`: one writer inside.
        @usableFromInline let word = Atomic<Int>(0)

        /// A free barrier.
        @inlinable init() {}

        /// Runs `read` alongside other readers, never alongside a writer.
        @inlinable func sync<V>(_ read: () -> V) -> V {
            var backoff = Backoff()
            while true {
                let seen = word.load(ordering: .relaxed)
                if seen >= 0, word.compareExchange(expected: seen, desired: seen + 1, ordering: .acquiring).exchanged {
                    break
                }
                backoff.wait()
            }
            defer { word.wrappingSubtract(1, ordering: .releasing) }
            return read()
        }

        /// Runs `write` alone: waits until no reader or writer is inside.
        @inlinable func sync<V>(flags: Flags, _ write: () -> V) -> V {
            if !word.compareExchange(expected: 0, desired: -1, ordering: .acquiring).exchanged { writeContended() }
            defer { word.store(0, ordering: .releasing) }
            return write()
        }

        /// Waits for the barrier to be free and then enters it as the writer, trying the exchange only after a
        /// plain load has seen the word free (see the header).
        @usableFromInline func writeContended() {
            var backoff = Backoff()
            while true {
                if word.load(ordering: .relaxed) == 0,
                    word.compareExchange(expected: 0, desired: -1, ordering: .acquiring).exchanged
                {
                    return
                }
                backoff.wait()
            }
        }
    }
#endif
