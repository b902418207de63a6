// ObserverList.swift: the observers of one promise, in registration order, made cheap for the common case of one. The
// state machine's `pending` and `draining` phases carry one each (PromiseStateMachine.swift).
//
// Most promises get one observer (one `then`), so the list keeps the first in fields of its own and makes an array only
// for a second. The first is kept as two plain fields, its queue and its body, rather than one `Observer?`, so that the
// promise's `deinit`, which runs unspecialized, destroys it without looking up generic metadata.
//
// Handing a queued observer to its queue costs the block, plus a context for what the block captures: the body and the
// resolution. For the first observer of a resolution the context is saved (`notifyFirst`): its body is handed off to
// the promise, and the block captures only the promise, which then serves as its context, and reads body and
// resolution back from it (`runHandedOff`). Only the resolving thread writes `handedOff`, before it dispatches the
// block, and only that block reads it afterwards, so it needs no lock.

import Dispatch
import PromisePlumbing

extension Promise {
    /// A registered observer. `queue == nil` marks a library-internal observer that runs inline.
    @usableFromInline struct Observer {
        @usableFromInline let queue: DispatchQueue?
        @usableFromInline let body: (Resolution) -> Void

        @inlinable init(queue: DispatchQueue?, body: @escaping (Resolution) -> Void) {
            self.queue = queue
            self.body = body
        }
    }

    /// The observers waiting for a promise's resolution, in registration order.
    @usableFromInline struct ObserverList {
        /// The first observer's queue (see the header).
        @usableFromInline var firstQueue: DispatchQueue?
        /// The first observer's body.
        @usableFromInline var firstBody: ((Resolution) -> Void)?
        /// The observers after the first, in an array made for the second.
        @usableFromInline var rest: [Observer]?

        @inlinable init() {}

        /// Whether the list holds no observer.
        @inlinable var isEmpty: Bool { firstBody == nil && rest == nil }

        /// Adds `observer` at the end.
        @inlinable mutating func append(_ observer: Observer) {
            if isEmpty {
                firstQueue = observer.queue
                firstBody = observer.body
            } else if rest == nil {
                rest = [observer]
            } else {
                rest!.append(observer)
            }
        }

        /// Returns the observers and leaves this list empty. (The core moves lists by switching over the machine's
        /// phase instead; ObserverTests uses this one.)
        @inlinable mutating func take() -> ObserverList {
            var taken = ObserverList()
            swap(&taken, &self)
            return taken
        }

        /// Removes the first observer and returns it, or returns `nil` if the list is empty.
        @inlinable mutating func removeFirst() -> Observer? {
            // Read and cleared as fields, not with `take()`: a closure that comes out of a generic call comes out
            // maximally abstracted, and turning it back into a `(Resolution) -> Void` allocates a thunk.
            if let body = firstBody {
                let first = Observer(queue: firstQueue, body: body)
                firstQueue = nil
                firstBody = nil
                return first
            }
            guard let first = rest?.first else { return nil }
            rest!.removeFirst()
            if rest!.isEmpty { rest = nil }
            return first
        }

        /// Hands `resolution` to each observer, in order (`Promise.notify(_:of:)`).
        @inlinable func notifyEach(of resolution: Resolution) {
            if let firstBody { Promise.notify(Observer(queue: firstQueue, body: firstBody), of: resolution) }
            for observer in rest ?? [] { Promise.notify(observer, of: resolution) }
        }
    }

    /// Runs the first observer of a resolution like `notify(_:of:)`, except that a queued one is handed off to the
    /// promise, so that the block dispatched for it captures only `self` (see the header).
    @inlinable func notifyFirst(_ observer: Observer, of resolution: Resolution) {
        guard let queue = observer.queue else { return Self.notify(observer, of: resolution) }
        handedOff = observer.body
        // The block captures the promise, whatever its value type: the lock and the hand-off order the accesses.
        let promise = UncheckedSendable(self)
        queue.async(group: promisesGroup) { promise.value.runHandedOff() }
    }

    /// Runs the observer handed off by `notifyFirst` with the resolution, on its queue, and lets go of it.
    @inlinable func runHandedOff() {
        let body = handedOff!
        handedOff = nil
        body(storedResolution)
    }
}
