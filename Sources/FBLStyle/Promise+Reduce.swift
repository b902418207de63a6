import Dispatch

extension Promise {
    #if CheckedHandlers
        /// The block type of `reduce`: combines the accumulated value with the next element. Under CheckedHandlers, `@Sendable (Value, Element) throws -> Promise<Value>`.
        public typealias Reducer<Element> = @Sendable (Value, Element) throws -> Promise<Value>
    #else
        /// The block type of `reduce`: combines the accumulated value with the next element.
        public typealias Reducer<Element> = (Value, Element) throws -> Promise<Value>
    #endif

    /// Reduces `items` sequentially, starting from the value `self` is fulfilled with.
    ///
    /// For each element in turn, `reducer` runs asynchronously on `queue` with the value accumulated so far and the
    /// element; the promise it returns provides the next accumulated value. A rejection stops the reduction.
    /// - Parameters:
    ///   - queue: The queue to run `reducer` on.
    ///   - items: The elements to combine, in order.
    ///   - reducer: A block combining the accumulated value and an element into a promise of the next value.
    /// - Returns: The promise returned by the last call of `reducer`, or `self` when `items` is empty.
    @discardableResult
    public func reduce<Element>(
        on queue: DispatchQueue = .promises,
        _ items: Element...,
        combine reducer: @escaping Reducer<Element>
    ) -> Promise<Value> {
        reduce(on: queue, items, reducer)
    }

    /// Reduces a sequence sequentially, starting from the value `self` is fulfilled with.
    ///
    /// For each element in turn, `reducer` runs asynchronously on `queue` with the value accumulated so far and the
    /// element; the promise it returns provides the next accumulated value. A rejection stops the reduction.
    /// - Parameters:
    ///   - queue: The queue to run `reducer` on.
    ///   - items: The elements to combine, in order.
    ///   - reducer: A block combining the accumulated value and an element into a promise of the next value.
    /// - Returns: The promise returned by the last call of `reducer`, or `self` when `items` is empty.
    @discardableResult
    public func reduce<Container: Sequence>(
        on queue: DispatchQueue = .promises,
        _ items: Container,
        _ reducer: @escaping Reducer<Container.Element>
    ) -> Promise<Value> {
        items.reduce(self) { promise, item in
            nonisolated(unsafe) let item = item
            return promise.then(on: queue) { value in
                try reducer(value, item)
            }
        }
    }
}
