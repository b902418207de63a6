// Reading the state of a promise from outside: whether it is pending, fulfilled or rejected, and with what.

extension Promise {
    /// Whether the promise is still pending.
    public var isPending: Bool {
        currentResolution == nil
    }

    /// Whether the promise is fulfilled.
    public var isFulfilled: Bool {
        if case .success = currentResolution { return true }
        return false
    }

    /// Whether the promise is rejected.
    public var isRejected: Bool {
        if case .failure = currentResolution { return true }
        return false
    }

    /// The value the promise was fulfilled with, or `nil` while pending, when rejected, or when the value is an
    /// optional's `nil`.
    ///
    /// As in the original, a `nil` value is flattened: a `Promise<Int?>` fulfilled with `nil` has `value == nil`
    /// (not `Optional(nil)`), so `if let value = promise.value` takes the `else` branch, the same as while pending.
    /// Use ``isFulfilled`` to tell a `nil` value from a promise that has none.
    public var value: Value? {
        guard case .success(let value) = currentResolution else { return nil }
        if let optional = value as? any AnyOptional, optional.isNilAtAnyDepth { return nil }
        return value
    }

    /// The error the promise was rejected with, or `nil` while pending or when fulfilled.
    public var error: (any Error)? {
        if case .failure(let error) = currentResolution { return error }
        return nil
    }
}

extension Promise: CustomStringConvertible {
    /// `Fulfilled: <value>`, `Rejected: <error>` or `Pending: <Value type>`, as in the original.
    public var description: String {
        switch currentResolution {
        case .success(let value): return "Fulfilled: \(value)"
        case .failure(let error): return "Rejected: \(error)"
        case nil: return "Pending: \(Value.self)"
        }
    }
}
