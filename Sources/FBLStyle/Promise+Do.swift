import Dispatch
import PromisePlumbing

// The "do" initializers. As in the original, they are generic over the block's result rather than tied to `Value`:
// that is what makes a block that only throws, `Promise<Int> { throw error }`, compile (its result type is `Void`,
// and only the value initializer accepts it), and what lets a block return a value or promise of another type that
// converts to `Value` (`Promise<Any> { 42 }`). When the block's result is `Value` itself, the conversion is the
// identity; a result that converts neither to `Value` nor to an error is a programming error, as in the original.

extension Promise {
    #if CheckedHandlers
        /// The block type of the "do" initializers: produces the resolution. Under CheckedHandlers, `@Sendable () throws -> Result`.
        public typealias Do<Result> = @Sendable () throws -> Result
    #else
        /// The block type of the "do" initializers: produces the resolution.
        public typealias Do<Result> = () throws -> Result
    #endif

    /// Creates a pending promise fulfilled with the value `work` returns, or rejected with the error it throws.
    ///
    /// `work` runs asynchronously on `queue`. Its result converts to `Value` as with `as?`; a result that is an
    /// `Error` rejects the promise, as any fulfilment with an error does. A block that only throws has result `Void`
    /// and compiles for any `Value`: `Promise<Int> { throw error }` is rejected with `error`.
    /// - Precondition: The result converts to `Value` or is an `Error`.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block returning the value of the new promise.
    public convenience init<Output>(on queue: DispatchQueue = .promises, _ work: @escaping Do<Output>) {
        self.init(pending: ())
        let promise = UncheckedSendable(self)  // resolved on `queue`, under its lock, whatever `Value`
        nonisolated(unsafe) let work: () throws -> Output = work  // runs once, on `queue`
        queue.async(group: promisesGroup) {
            do {
                promise.value.resolve(Self.converting(.success(try work())))
            } catch {
                promise.value.reject(error)
            }
        }
    }

    /// Creates a pending promise resolved like the promise `work` returns, or rejected with the error it throws.
    ///
    /// `work` runs asynchronously on `queue`. The value of the promise it returns converts to `Value` as with the
    /// initializer whose block returns a value.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block returning a promise whose resolution the new promise takes.
    public convenience init<Output>(on queue: DispatchQueue = .promises, _ work: @escaping Do<Promise<Output>>) {
        self.init(pending: ())
        let promise = UncheckedSendable(self)  // resolved on `queue`, under its lock, whatever `Value`
        nonisolated(unsafe) let work: () throws -> Promise<Output> = work  // runs once, on `queue`
        queue.async(group: promisesGroup) {
            do {
                let other = try work()
                if let other = other as? Promise<Value> {
                    promise.value.resolve(with: other, on: queue)
                } else {
                    other.observe(on: queue) { promise.value.resolve(Self.converting($0)) }
                }
            } catch {
                promise.value.reject(error)
            }
        }
    }

    /// `resolution` with its value converted to `Value`; a value that does not convert but is an `Error` becomes a
    /// rejection with it.
    static func converting<Output>(_ resolution: Result<Output, any Error>) -> Resolution {
        switch resolution {
        case .success(let value as Value):
            return fulfilment(with: value)
        case .success(let error as any Error):
            return .failure(error)
        case .success(let value):
            preconditionFailure("Cannot convert \(type(of: value)) to \(Value.self)")
        case .failure(let error):
            return .failure(error)
        }
    }
}
