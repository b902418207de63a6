// The key-path forms of the chain methods, as PromiseKit has them: `promise.map(\.name)` reads a property of the
// value. Each one is its closure form with `{ $0[keyPath: keyPath] }`.

import Dispatch

extension Thenable {
    /// The value's property at `keyPath`.
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U>
    ) -> Promise<U> {
        map(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// The value's optional property at `keyPath`; `nil` rejects with `PMKError.compactMap`.
    public func compactMap<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U?>
    ) -> Promise<U> {
        compactMap(on: on, flags: flags) { $0[keyPath: keyPath] }
    }
}

extension Thenable where T: Sequence {
    /// Every element's property at `keyPath`.
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U>
    ) -> Promise<[U]> {
        mapValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// Every element's optional property at `keyPath`, without the `nil`s.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U?>
    ) -> Promise<[U]> {
        compactMapValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// The elements whose `Bool` property at `keyPath` is true.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, Bool>
    ) -> Promise<[T.Iterator.Element]> {
        filterValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }
}

extension Guarantee {
    /// The value's property at `keyPath`.
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U>
    ) -> Guarantee<U> {
        map(on: on, flags: flags) { $0[keyPath: keyPath] }
    }
}

extension Guarantee where T: Sequence {
    /// Every element's property at `keyPath`.
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U>
    ) -> Guarantee<[U]> {
        mapValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// Every element's optional property at `keyPath`, without the `nil`s.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U?>
    ) -> Guarantee<[U]> {
        compactMapValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// The elements whose `Bool` property at `keyPath` is true.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, Bool>
    ) -> Guarantee<[T.Iterator.Element]> {
        filterValues(on: on, flags: flags) { $0[keyPath: keyPath] }
    }
}
