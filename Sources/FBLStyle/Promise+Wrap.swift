import Dispatch

// Promises from completion-handler APIs. Each `wrap` runs `work` asynchronously on `queue`, passing it a completion
// handler that resolves the returned promise. A non-nil error rejects it; an error thrown by `work` rejects it too.

#if CheckedHandlers
    /// The work of the `wrap` whose completion handler takes `()`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapWork = @Sendable (@escaping @Sendable () -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapValueWork<Value> = @Sendable (@escaping @Sendable (Value) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value?)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapOptionalWork<Value> = @Sendable (@escaping @Sendable (Value?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value, (any Error)?)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapValueErrorWork<Value> =
        @Sendable (@escaping @Sendable (Value, (any Error)?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `((any Error)?, Value)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapErrorValueWork<Value> =
        @Sendable (@escaping @Sendable ((any Error)?, Value) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value?, (any Error)?)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapOptionalErrorWork<Value> =
        @Sendable (@escaping @Sendable (Value?, (any Error)?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `((any Error)?, Value?)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapErrorOptionalWork<Value> =
        @Sendable (@escaping @Sendable ((any Error)?, Value?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value1?, Value2?, (any Error)?)`. Under CheckedHandlers, work and handler are `@Sendable`.
    public typealias WrapTwoValuesWork<Value1, Value2> =
        @Sendable (@escaping @Sendable (Value1?, Value2?, (any Error)?) -> Void) throws -> Void
#else
    /// The work of the `wrap` whose completion handler takes `()`.
    public typealias WrapWork = (@escaping () -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value)`.
    public typealias WrapValueWork<Value> = (@escaping (Value) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value?)`.
    public typealias WrapOptionalWork<Value> = (@escaping (Value?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value, (any Error)?)`.
    public typealias WrapValueErrorWork<Value> = (@escaping (Value, (any Error)?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `((any Error)?, Value)`.
    public typealias WrapErrorValueWork<Value> = (@escaping ((any Error)?, Value) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value?, (any Error)?)`.
    public typealias WrapOptionalErrorWork<Value> = (@escaping (Value?, (any Error)?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `((any Error)?, Value?)`.
    public typealias WrapErrorOptionalWork<Value> = (@escaping ((any Error)?, Value?) -> Void) throws -> Void
    /// The work of the `wrap` whose completion handler takes `(Value1?, Value2?, (any Error)?)`.
    public typealias WrapTwoValuesWork<Value1, Value2> = (@escaping (Value1?, Value2?, (any Error)?) -> Void) throws ->
        Void
#endif

/// Wraps an API whose completion handler takes no arguments.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise fulfilled with `nil` when the handler is called.
public func wrap(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapWork
) -> Promise<Any?> {
    Promise<Any?>(on: queue) { fulfill, _ in
        try work { fulfill(nil) }
    }
}

/// Wraps an API whose completion handler takes one value.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise fulfilled with the value passed to the handler.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapValueWork<Value>
) -> Promise<Value> {
    Promise<Value>(on: queue) { fulfill, _ in
        try work { fulfill($0) }
    }
}

/// Wraps an API whose completion handler takes one optional value.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise fulfilled with the optional value passed to the handler.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapOptionalWork<Value>
) -> Promise<Value?> {
    Promise<Value?>(on: queue) { fulfill, _ in
        try work { fulfill($0) }
    }
}

/// Wraps an API whose completion handler takes a value and an optional error.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise rejected with the error if there is one, else fulfilled with the value.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapValueErrorWork<Value>
) -> Promise<Value> {
    Promise<Value>(on: queue) { fulfill, reject in
        try work { value, error in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose completion handler takes an optional error and a value.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise rejected with the error if there is one, else fulfilled with the value.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapErrorValueWork<Value>
) -> Promise<Value> {
    Promise<Value>(on: queue) { fulfill, reject in
        try work { error, value in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose completion handler takes an optional value and an optional error.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise rejected with the error if there is one, else fulfilled with the optional value.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapOptionalErrorWork<Value>
) -> Promise<Value?> {
    Promise<Value?>(on: queue) { fulfill, reject in
        try work { value, error in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose completion handler takes an optional error and an optional value.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise rejected with the error if there is one, else fulfilled with the optional value.
public func wrap<Value>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapErrorOptionalWork<Value>
) -> Promise<Value?> {
    Promise<Value?>(on: queue) { fulfill, reject in
        try work { error, value in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose completion handler takes two optional values and an optional error.
/// - Parameters:
///   - queue: The queue to run `work` on.
///   - work: A block calling the API with the given completion handler.
/// - Returns: A promise rejected with the error if there is one, else fulfilled with both optional values.
public func wrap<Value1, Value2>(
    on queue: DispatchQueue = .promises,
    _ work: @escaping WrapTwoValuesWork<Value1, Value2>
) -> Promise<(Value1?, Value2?)> {
    Promise<(Value1?, Value2?)>(on: queue) { fulfill, reject in
        try work { value1, value2, error in
            if let error { reject(error) } else { fulfill((value1, value2)) }
        }
    }
}
