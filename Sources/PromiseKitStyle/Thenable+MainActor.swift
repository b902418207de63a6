import Dispatch

// The main-actor forms, under the trait CheckedHandlers only. There every handler is `@Sendable`, so a handler that
// touches main-actor state does not compile; these overloads accept one that is isolated to the main actor, and run
// it on the main queue, where that isolation holds. They are picked by the queue argument: `on: .main` names
// `PMKMainQueue.main`, and the plain forms are `@_disfavoredOverload` under the trait, so that code written for
// PromiseKit as `.done(on: .main) { self.label.text = $0 }` in a `@MainActor` type compiles unchanged and is checked.
// A closure marked `{ @MainActor in ... }` cannot go to a plain form, so it needs `on: .main` too: the compiler accepts
// main-actor code only where it runs on the main queue. The default queue, `conf.Q`, may be moved at run time, so a
// form without `on:` stays plain. A value enters the main actor and a value returned to the chain leaves it, so both
// must be `Sendable`.

#if CheckedHandlers
    /// The main queue, as a value that says so to the compiler: `on: .main` picks the forms whose handler is isolated
    /// to the main actor (trait CheckedHandlers).
    public struct PMKMainQueue: Sendable {
        /// The main queue: `DispatchQueue.main`, which the main actor runs on.
        public static let main = PMKMainQueue()

        private init() {}

        /// Runs `body`, isolated to the main actor, with `input`; the caller runs it on the main queue.
        @usableFromInline static func run<Input: Sendable, Output: Sendable>(
            _ body: @MainActor (Input) throws -> Output, _ input: Input
        ) rethrows -> Output {
            try MainActor.assumeIsolated { try body(input) }
        }
    }

    extension Thenable where T: Sendable {
        /// `then` on the main queue, with a body isolated to the main actor.
        public func then<U: Thenable & Sendable>(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) throws -> U
        ) -> Promise<U.T> {
            then(on: DispatchQueue.main, flags: flags) { try PMKMainQueue.run(body, $0) }
        }

        /// `map` on the main queue, with a transform isolated to the main actor.
        public func map<U: Sendable>(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ transform: @escaping @MainActor (T) throws -> U
        ) -> Promise<U> {
            map(on: DispatchQueue.main, flags: flags) { try PMKMainQueue.run(transform, $0) }
        }

        /// `done` on the main queue, with a body isolated to the main actor.
        @discardableResult
        public func done(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) throws -> Void
        ) -> Promise<Void> {
            done(on: DispatchQueue.main, flags: flags) { try PMKMainQueue.run(body, $0) }
        }

        /// `get` on the main queue, with a body isolated to the main actor.
        public func get(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) throws -> Void
        ) -> Promise<T> {
            get(on: DispatchQueue.main, flags: flags) { try PMKMainQueue.run(body, $0) }
        }
    }

    extension CatchMixin {
        /// `catch` on the main queue, with a body isolated to the main actor.
        @discardableResult
        public func `catch`(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, policy: CatchPolicy = conf.catchPolicy,
            _ body: @escaping @MainActor (Error) -> Void
        ) -> PMKFinalizer {
            self.catch(on: DispatchQueue.main, flags: flags, policy: policy) { PMKMainQueue.run(body, $0) }
        }

        /// `recover` on the main queue, with a body isolated to the main actor.
        public func recover<U: Thenable & Sendable>(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, policy: CatchPolicy = conf.catchPolicy,
            _ body: @escaping @MainActor (Error) throws -> U
        ) -> Promise<T> where U.T == T {
            recover(on: DispatchQueue.main, flags: flags, policy: policy) { try PMKMainQueue.run(body, $0) }
        }

        /// `ensure` on the main queue, with a body isolated to the main actor.
        public func ensure(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor () -> Void
        ) -> Promise<T> {
            ensure(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, ()) }
        }
    }

    extension PMKFinalizer {
        /// `finally` on the main queue, with a body isolated to the main actor.
        public func finally(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor () -> Void
        ) {
            finally(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, ()) }
        }
    }

    extension Guarantee where T: Sendable {
        /// `done` on the main queue, with a body isolated to the main actor.
        @discardableResult
        public func done(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) -> Void
        ) -> Guarantee<Void> {
            done(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, $0) }
        }

        /// `get` on the main queue, with a body isolated to the main actor.
        public func get(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) -> Void
        ) -> Guarantee<T> {
            get(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, $0) }
        }

        /// `map` on the main queue, with a body isolated to the main actor.
        public func map<U: Sendable>(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) -> U
        ) -> Guarantee<U> {
            map(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, $0) }
        }

        /// `then` on the main queue, with a body isolated to the main actor.
        public func then<U: Sendable>(
            on: PMKMainQueue, flags: DispatchWorkItemFlags? = nil, _ body: @escaping @MainActor (T) -> Guarantee<U>
        ) -> Guarantee<U> {
            then(on: DispatchQueue.main, flags: flags) { PMKMainQueue.run(body, $0) }
        }
    }
#endif
