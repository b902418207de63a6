// The floor of B8 "contended": an array that T threads append to under one lock made of one atomic word, the kind of
// lock each style uses on Linux (the shared Lock of BoltsStyle and FBLStyle, PromiseKitStyle's barrier for a
// writer): a compare-and-exchange takes it, a store releases it, and a waiter tries the exchange again only after a
// plain load has seen it free, spinning 64 tries and then yielding the processor before each further one. The floor is
// then what every registration on a promise must do at least (take a lock, append a callback) and nothing more.

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An array appended to by many threads under one spinning lock.
///
/// `@unchecked Sendable`: `elements` is read and written only while `locked` is held.
final class LockedArray<Element>: @unchecked Sendable {
    private let locked = Atomic<Bool>(false)
    private var elements: [Element] = []

    /// Appends `element` under the lock.
    func append(_ element: Element) {
        lock()
        elements.append(element)
        locked.store(false, ordering: .releasing)
    }

    /// The elements appended so far, read under the lock.
    var all: [Element] {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return elements
    }

    private func lock() {
        var spins = 0
        while locked.load(ordering: .relaxed)
            || !locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        {
            if spins >= 64 { sched_yield() }
            spins += 1
        }
    }
}
