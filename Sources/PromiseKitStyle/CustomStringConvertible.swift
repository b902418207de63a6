// `description` and `debugDescription` of promises and guarantees, in PromiseKit's formats.

extension Promise: CustomStringConvertible {
    /// `Promise(value)`, `Promise(error)`, or `Promise(…T)` while pending.
    public var description: String {
        switch result {
        case nil: return "Promise(…\(T.self))"
        case .fulfilled(let value)?: return "Promise(\(value))"
        case .rejected(let error)?: return "Promise(\(error))"
        }
    }
}

extension Promise: CustomDebugStringConvertible {
    /// `Promise<T>.fulfilled(value)`, `Promise<T>.rejected(ErrorType.error)`, or `Promise<T>.pending(handlers: n)`
    /// with the number of handlers waiting.
    public var debugDescription: String {
        let (sealed, waiting) = inspect()
        switch sealed {
        case nil: return "Promise<\(T.self)>.pending(handlers: \(waiting))"
        case .fulfilled(let value)?: return "Promise<\(T.self)>.fulfilled(\(value))"
        case .rejected(let error)?: return "Promise<\(T.self)>.rejected(\(type(of: error)).\(error))"
        }
    }
}

extension Guarantee: CustomStringConvertible {
    /// `Guarantee(value)`, or `Guarantee(…T)` while pending. (PromiseKit's guarantees have no description of their
    /// own; this one follows its promises' format.)
    public var description: String {
        guard let value = sealedValue else { return "Guarantee(…\(T.self))" }
        return "Guarantee(\(value))"
    }
}

extension Guarantee: CustomDebugStringConvertible {
    /// `Guarantee<T>.fulfilled(value)`, or `Guarantee<T>.pending(handlers: n)` with the number of handlers waiting.
    public var debugDescription: String {
        let (sealed, waiting) = inspect()
        guard let value = sealed else { return "Guarantee<\(T.self)>.pending(handlers: \(waiting))" }
        return "Guarantee<\(T.self)>.fulfilled(\(value))"
    }
}
