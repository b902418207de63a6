import Dispatch

// The main-actor forms, under the trait CheckedHandlers only. There every block is `@Sendable`, so a block that
// touches main-actor state does not compile; these overloads accept one that is isolated to the main actor, and run
// it on the main queue, where that isolation holds. They are picked by the queue argument: `on: .main` names
// `FBLMainQueue.main`, and the plain forms are `@_disfavoredOverload` under the trait, so that code written for
// Google's Promises as `.then(on: .main) { self.label.text = $0 }` in a `@MainActor` type compiles unchanged and is
// checked. A closure marked `{ @MainActor in ... }` cannot go to a plain form, so it needs `on: .main` too: the
// compiler accepts main-actor code only where it runs on the main queue. The default queue, `DispatchQueue.promises`,
// may be moved at run time, so a form without `on:` stays plain. A value enters the main actor and a value returned to
// the chain leaves it, so both must be `Sendable`.

#if CheckedHandlers
    /// The main queue, as a value that says so to the compiler: `on: .main` picks the forms whose block is isolated to
    /// the main actor (trait CheckedHandlers).
    public struct FBLMainQueue: Sendable {
        /// The main queue: `DispatchQueue.main`, which the main actor runs on.
        public static let main = FBLMainQueue()

        private init() {}

        /// Runs `work`, isolated to the main actor, with `input`; the caller runs it on the main queue.
        @usableFromInline static func run<Input: Sendable, Output: Sendable>(
            _ work: @MainActor (Input) throws -> Output, _ input: Input
        ) rethrows -> Output {
            try MainActor.assumeIsolated { try work(input) }
        }
    }

    // The forms whose block never sees the value: any promise.
    extension Promise {
        /// `catch` on the main queue, with a block isolated to the main actor.
        @discardableResult
        public func `catch`(on queue: FBLMainQueue, _ reject: @escaping @MainActor (any Error) -> Void) -> Promise {
            self.catch(on: DispatchQueue.main) { FBLMainQueue.run(reject, $0) }
        }

        /// `always` on the main queue, with a block isolated to the main actor.
        @discardableResult
        public func always(on queue: FBLMainQueue, _ work: @escaping @MainActor () -> Void) -> Promise {
            always(on: DispatchQueue.main) { FBLMainQueue.run(work, ()) }
        }
    }

    // The forms whose block receives or returns the value, which crosses into or out of the main actor.
    extension Promise where Value: Sendable {
        /// `then` on the main queue, with a block isolated to the main actor that returns a promise.
        @discardableResult
        public func then<Result: Sendable>(
            on queue: FBLMainQueue, _ work: @escaping @MainActor (Value) throws -> Promise<Result>
        ) -> Promise<Result> {
            then(on: DispatchQueue.main) { try FBLMainQueue.run(work, $0) }
        }

        /// `then` on the main queue, with a block isolated to the main actor that returns a value.
        @discardableResult
        public func then<Result: Sendable>(
            on queue: FBLMainQueue, _ work: @escaping @MainActor (Value) throws -> Result
        ) -> Promise<Result> {
            then(on: DispatchQueue.main) { try FBLMainQueue.run(work, $0) }
        }

        /// `then` on the main queue, with a block isolated to the main actor that returns nothing.
        @discardableResult
        public func then(on queue: FBLMainQueue, _ work: @escaping @MainActor (Value) throws -> Void) -> Promise {
            then(on: DispatchQueue.main) { try FBLMainQueue.run(work, $0) }
        }

        /// `recover` on the main queue, with a block isolated to the main actor that returns a promise.
        @discardableResult
        public func recover(
            on queue: FBLMainQueue, _ recovery: @escaping @MainActor (any Error) throws -> Promise
        ) -> Promise {
            recover(on: DispatchQueue.main) { try FBLMainQueue.run(recovery, $0) }
        }

        /// `recover` on the main queue, with a block isolated to the main actor that returns a value.
        @discardableResult
        public func recover(
            on queue: FBLMainQueue, _ recovery: @escaping @MainActor (any Error) throws -> Value
        ) -> Promise {
            recover(on: DispatchQueue.main) { try FBLMainQueue.run(recovery, $0) }
        }

        /// `validate` on the main queue, with a predicate isolated to the main actor.
        @discardableResult
        public func validate(on queue: FBLMainQueue, _ predicate: @escaping @MainActor (Value) -> Bool) -> Promise {
            validate(on: DispatchQueue.main) { FBLMainQueue.run(predicate, $0) }
        }
    }
#endif
