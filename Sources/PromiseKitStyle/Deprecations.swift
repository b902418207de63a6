// swift-format-ignore: AmbiguousTrailingClosureOverload
import Dispatch

// PromiseKit 8's deprecated API, with PromiseKit's signatures and deprecation messages, so code written against
// PromiseKit compiles here with the same warnings. Each is a thin spelling of the current API it points to. Those
// PromiseKit compiles only under its `PMKFullDeprecations` condition are here under the same condition. The five
// `wrap` overloads differ only in the completion handler's type, as PromiseKit's do (hence the lint exception).

/// Wraps a completion handler of the form `(T?, Error?)`: rejects with the error if there is one, else fulfils with
/// the value, else rejects with ``PMKError/invalidCallingConvention``.
@available(*, deprecated, message: "See `init(resolver:)`")
public func wrap<T>(_ body: (@escaping PMKCompletion<T?, Error?>) throws -> Void) -> Promise<T> {
    Promise { seal in
        try body { value, error in seal.resolve(value, error) }
    }
}

/// Wraps a completion handler of the form `(T, Error?)`: rejects with the error if there is one, else fulfils with
/// the value.
@available(*, deprecated, message: "See `init(resolver:)`")
public func wrap<T>(_ body: (@escaping PMKCompletion<T, Error?>) throws -> Void) -> Promise<T> {
    Promise { seal in
        try body { value, error in seal.resolve(value, error) }
    }
}

/// Wraps a completion handler of the form `(Error?, T?)`, the error first; otherwise as the `(T?, Error?)` form.
@available(*, deprecated, message: "See `init(resolver:)`")
public func wrap<T>(_ body: (@escaping PMKCompletion<Error?, T?>) throws -> Void) -> Promise<T> {
    Promise { seal in
        try body { error, value in seal.resolve(error, value) }
    }
}

/// Wraps a completion handler that passes only an optional error: rejects with it, or fulfils with `()`.
@available(*, deprecated, message: "See `init(resolver:)`")
public func wrap(_ body: (@escaping PMKGuaranteedHandler<Error?, Void>) throws -> Void) -> Promise<Void> {
    Promise { seal in
        try body { error in seal.resolve(error) }
    }
}

/// Wraps a completion handler that passes only a value: fulfils with it.
@available(*, deprecated, message: "See `init(resolver:)`")
public func wrap<T>(_ body: (@escaping PMKGuaranteedHandler<T, Void>) throws -> Void) -> Promise<T> {
    Promise { seal in
        try body { value in seal.fulfill(value) }
    }
}

extension Promise {
    /// The old name of ``CatchMixin/ensure(on:flags:_:)-(DispatchQueue?,_,_)``: runs `body` on `q` once this resolves
    /// either way, then passes the result on.
    @available(*, deprecated, message: "See `ensure`")
    public func always(on q: DispatchQueue = .main, execute body: @escaping PMKThunk<Void>) -> Promise {
        ensure(on: q, body)
    }
}

#if PMKFullDeprecations
    extension Thenable {
        /// The old name of ``Thenable/compactMap(on:flags:_:)``: a `nil` from `transform` rejects with
        /// ``PMKError/compactMap(_:_:)``.
        @available(*, deprecated, message: "See: `compactMap`")
        public func flatMap<U>(
            on: DispatchQueue? = conf.Q.map, _ transform: @escaping PMKHandler<T, U?>
        ) -> Promise<U> {
            compactMap(on: on, transform)
        }
    }

    extension Thenable where T: Sequence {
        /// The old name of ``Thenable/mapValues(on:flags:_:)``.
        #if CheckedHandlers
            @_disfavoredOverload  // with the other plain forms, keeping their order (Thenable+MainActor.swift)
        #endif
        @available(*, deprecated, message: "See: `mapValues`")
        public func map<U>(
            on: DispatchQueue? = conf.Q.map, _ transform: @escaping PMKHandler<T.Iterator.Element, U>
        ) -> Promise<[U]> {
            mapValues(on: on, transform)
        }

        /// The old name of ``Thenable/flatMapValues(on:flags:_:)``.
        @available(*, deprecated, message: "See: `flatMapValues`")
        public func flatMap<U: Sequence>(
            on: DispatchQueue? = conf.Q.map, _ transform: @escaping PMKHandler<T.Iterator.Element, U>
        ) -> Promise<[U.Iterator.Element]> {
            flatMapValues(on: on, transform)
        }
    }
#endif

extension Thenable where T: Sequence {
    /// The old name of ``Thenable/filterValues(on:flags:_:)-(_,_,PMKGuaranteedHandler<Self.T.Iterator.Element,Bool>)``:
    /// keeps the elements that pass `test`.
    @available(*, deprecated, message: "See: `filterValues`")
    public func filter(
        on: DispatchQueue? = conf.Q.map, test: @escaping PMKGuaranteedHandler<T.Iterator.Element, Bool>
    ) -> Promise<[T.Iterator.Element]> {
        filterValues(on: on, test)
    }
}

extension Thenable where T: Collection {
    /// The old name of ``Thenable/firstValue``: the first element, or a rejection with
    /// ``PMKError/emptySequence`` if the collection is empty.
    @available(*, deprecated, message: "See: `firstValue`")
    public var first: Promise<T.Iterator.Element> { firstValue }

    /// The old name of ``Thenable/lastValue``: the last element, or a rejection with ``PMKError/emptySequence`` if
    /// the collection is empty.
    @available(*, deprecated, message: "See: `lastValue`")
    public var last: Promise<T.Iterator.Element> { lastValue }
}

extension Thenable where T: Sequence, T.Iterator.Element: Comparable {
    /// The old name of ``Thenable/sortedValues(on:flags:)``: the elements in ascending order.
    @available(*, deprecated, message: "See: `sortedValues`")
    public func sorted(on: DispatchQueue? = conf.Q.map) -> Promise<[T.Iterator.Element]> {
        sortedValues(on: on)
    }
}
