// The main-actor forms, under the trait CheckedHandlers only. There every continuation is `@Sendable`, so one that
// touches main-actor state does not compile; these overloads accept one that is isolated to the main actor, and run
// it with the `.mainThread` executor, where that isolation holds. They are picked by the executor argument:
// `.mainThread` names `BFMainThreadExecutor.mainThread`, and the plain forms are `@_disfavoredOverload` under the
// trait, so that code written for Bolts as `continueWith(.mainThread) { self.label.text = ... }` in a `@MainActor`
// type compiles unchanged and is checked. A closure marked `{ @MainActor in ... }` cannot go to a plain form, so it
// needs `.mainThread` too: the compiler accepts main-actor code only where it runs on the main thread. A task's
// result enters the main actor and a continuation's result leaves it, so both must be `Sendable`.

#if CheckedHandlers
    /// The `.mainThread` executor, as a value that says so to the compiler: `.mainThread` picks the forms whose
    /// continuation is isolated to the main actor (trait CheckedHandlers).
    public struct BFMainThreadExecutor: Sendable {
        /// Runs on the main thread: inline when already there, otherwise on the main queue (``BFExecutor/mainThread``).
        public static let mainThread = BFMainThreadExecutor()

        private init() {}

        /// Runs `continuation`, isolated to the main actor, with `input`; the caller runs it on the main thread.
        @usableFromInline static func run<Input: Sendable, Output: Sendable>(
            _ continuation: @MainActor (Input) throws -> Output, _ input: Input
        ) rethrows -> Output {
            try MainActor.assumeIsolated { try continuation(input) }
        }
    }

    extension BFTask where TResult: Sendable {
        /// `continueWith` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueWith<S: Sendable>(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (BFTask<TResult>) throws -> S
        ) -> BFTask<S> {
            continueWith(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }

        /// `continueWithTask` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueWithTask<S: Sendable>(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (BFTask<TResult>) throws -> BFTask<S>
        ) -> BFTask<S> {
            continueWithTask(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }

        /// `continueOnSuccessWith` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueOnSuccessWith<S: Sendable>(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (TResult) throws -> S
        ) -> BFTask<S> {
            continueOnSuccessWith(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }

        /// `continueOnSuccessWithTask` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueOnSuccessWithTask<S: Sendable>(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (TResult) throws -> BFTask<S>
        ) -> BFTask<S> {
            continueOnSuccessWithTask(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }

        /// `continueOnErrorWith` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueOnErrorWith(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (any Error) throws -> TResult
        ) -> BFTask<TResult> {
            continueOnErrorWith(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }

        /// `continueOnErrorWithTask` on the main thread, with a continuation isolated to the main actor.
        @discardableResult
        public func continueOnErrorWithTask(
            _ executor: BFMainThreadExecutor,
            cancellationToken: BFCancellationToken? = nil,
            continuation: @escaping @MainActor (any Error) throws -> BFTask<TResult>
        ) -> BFTask<TResult> {
            continueOnErrorWithTask(BFExecutor.mainThread, cancellationToken: cancellationToken) {
                try BFMainThreadExecutor.run(continuation, $0)
            }
        }
    }
#endif
