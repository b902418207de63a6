import Dispatch

extension Thenable where T: Sequence {
    /// `Promise<[T]>` → `T -> U` → `Promise<[U]>`: maps every element.
    ///
    ///     Promise.value([1, 2, 3]).mapValues { $0 * 2 }  // [2, 4, 6]
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKHandler<T.Iterator.Element, U>
    ) -> Promise<[U]> {
        moduleMap(on: on, flags: flags) { try $0.map(transform) }
    }

    /// `Promise<[T]>` → `T -> [U]` → `Promise<[U]>`: maps every element to a sequence and concatenates them.
    public func flatMapValues<U: Sequence>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKHandler<T.Iterator.Element, U>
    ) -> Promise<[U.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { try $0.flatMap(transform) }
    }

    /// `Promise<[T]>` → `T -> U?` → `Promise<[U]>`: maps every element and drops the `nil`s.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKHandler<T.Iterator.Element, U?>
    ) -> Promise<[U]> {
        moduleMap(on: on, flags: flags) { try $0.compactMap(transform) }
    }

    /// `Promise<[T]>` → `T -> Promise<U>` → `Promise<[U]>`: starts one promise per element and waits for all
    /// (`when(fulfilled:)`).
    public func thenMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKHandler<T.Iterator.Element, U>
    ) -> Promise<[U.T]> {
        moduleThen(on: on, flags: flags) { when(fulfilled: try $0.map(transform)) }
    }

    /// `Promise<[T]>` → `T -> Promise<[U]>` → `Promise<[U]>`: like `thenMap`, then concatenates the results.
    public func thenFlatMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping PMKHandler<T.Iterator.Element, U>
    ) -> Promise<[U.T.Iterator.Element]> where U.T: Sequence {
        moduleThen(on: on, flags: flags) { when(fulfilled: try $0.map(transform)) }.moduleMap(on: nil, flags: nil) {
            $0.flatMap { $0 }
        }
    }

    /// `Promise<[T]>` → `T -> Bool` → `Promise<[T]>`: keeps the elements that pass `isIncluded`.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping PMKGuaranteedHandler<T.Iterator.Element, Bool>
    ) -> Promise<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.filter(isIncluded) }
    }
}

extension Thenable where T: Collection {
    /// The first element, or a rejection with `PMKError.emptySequence` if the collection is empty.
    public var firstValue: Promise<T.Iterator.Element> {
        moduleMap(on: nil, flags: nil) { collection in
            guard let first = collection.first else { throw PMKError.emptySequence }
            return first
        }
    }

    /// The first element that passes `test`, or a rejection with `PMKError.emptySequence` if none does.
    public func firstValue(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        where test: @escaping PMKGuaranteedHandler<T.Iterator.Element, Bool>
    ) -> Promise<T.Iterator.Element> {
        moduleMap(on: on, flags: flags) { collection in
            guard let found = collection.first(where: test) else { throw PMKError.emptySequence }
            return found
        }
    }

    /// The last element, or a rejection with `PMKError.emptySequence` if the collection is empty.
    public var lastValue: Promise<T.Iterator.Element> {
        moduleMap(on: nil, flags: nil) { collection in
            var last: T.Iterator.Element?
            for element in collection { last = element }
            guard let last else { throw PMKError.emptySequence }
            return last
        }
    }
}

extension Thenable where T: Sequence, T.Iterator.Element: Comparable {
    /// The elements in ascending order.
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil
    ) -> Promise<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.sorted() }
    }
}
