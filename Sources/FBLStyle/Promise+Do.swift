import Dispatch

extension Promise {
    /// The block type of the "do" initializers: produces the resolution.
    public typealias Do<Result> = () throws -> Result

    /// Creates a pending promise fulfilled with the value `work` returns, or rejected with the error it throws.
    ///
    /// `work` runs asynchronously on `queue`.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block returning the value of the new promise.
    public convenience init(on queue: DispatchQueue = .promises, _ work: @escaping Do<Value>) {
        self.init(pending: ())
        nonisolated(unsafe) let work = work
        queue.async(group: promisesGroup) {
            do {
                self.fulfill(try work())
            } catch {
                self.reject(error)
            }
        }
    }

    /// Creates a pending promise resolved like the promise `work` returns, or rejected with the error it throws.
    ///
    /// `work` runs asynchronously on `queue`.
    /// - Parameters:
    ///   - queue: The queue to run `work` on.
    ///   - work: A block returning a promise whose resolution the new promise takes.
    public convenience init(on queue: DispatchQueue = .promises, _ work: @escaping Do<Promise<Value>>) {
        self.init(pending: ())
        nonisolated(unsafe) let work = work
        queue.async(group: promisesGroup) {
            do {
                self.resolve(with: try work())
            } catch {
                self.reject(error)
            }
        }
    }
}
