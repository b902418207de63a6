// The key-path forms of the chain methods, as PromiseKit has them: `promise.map(\.name)` reads a property of the
// value. Each one is its closure form with `{ $0[keyPath: keyPath] }`.

import Dispatch

extension Thenable {
    /// The value's property at `keyPath`.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
    #endif
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U>
    ) -> Promise<U> {
        moduleMap(on: on, flags: flags) { $0[keyPath: keyPath] }
    }

    /// The value's optional property at `keyPath`; `nil` rejects with `PMKError.compactMap`.
    public func compactMap<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U?>
    ) -> Promise<U> {
        moduleMap(on: on, flags: flags) { value in
            guard let mapped = value[keyPath: keyPath] else { throw PMKError.compactMap(value, U.self) }
            return mapped
        }
    }
}

extension Thenable where T: Sequence {
    /// Every element's property at `keyPath`.
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U>
    ) -> Promise<[U]> {
        moduleMap(on: on, flags: flags) { $0.map { $0[keyPath: keyPath] } }
    }

    /// Every element's optional property at `keyPath`, without the `nil`s.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U?>
    ) -> Promise<[U]> {
        moduleMap(on: on, flags: flags) { $0.compactMap { $0[keyPath: keyPath] } }
    }

    /// The elements whose `Bool` property at `keyPath` is true.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, Bool>
    ) -> Promise<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.filter { $0[keyPath: keyPath] } }
    }
}

extension Guarantee {
    /// The value's property at `keyPath`.
    #if CheckedHandlers
        @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
    #endif
    public func map<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil, _ keyPath: KeyPath<T, U>
    ) -> Guarantee<U> {
        moduleMap(on: on, flags: flags) { $0[keyPath: keyPath] }
    }
}

extension Guarantee where T: Sequence {
    /// Every element's property at `keyPath`.
    public func mapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U>
    ) -> Guarantee<[U]> {
        moduleMap(on: on, flags: flags) { $0.map { $0[keyPath: keyPath] } }
    }

    /// Every element's optional property at `keyPath`, without the `nil`s.
    public func compactMapValues<U>(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, U?>
    ) -> Guarantee<[U]> {
        moduleMap(on: on, flags: flags) { $0.compactMap { $0[keyPath: keyPath] } }
    }

    /// The elements whose `Bool` property at `keyPath` is true.
    public func filterValues(
        on: DispatchQueue? = conf.Q.map, flags: DispatchWorkItemFlags? = nil,
        _ keyPath: KeyPath<T.Iterator.Element, Bool>
    ) -> Guarantee<[T.Iterator.Element]> {
        moduleMap(on: on, flags: flags) { $0.filter { $0[keyPath: keyPath] } }
    }
}
