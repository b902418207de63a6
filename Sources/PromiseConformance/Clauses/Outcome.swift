/// What a handler saw.
enum Outcome: Sendable, CustomStringConvertible {
    case fulfilled(Sentinel)
    case rejected(any Error)

    var description: String {
        switch self {
        case .fulfilled(let value): "fulfilled with \(value)"
        case .rejected(let error): "rejected with \(error)"
        }
    }

    func isFulfilled(with value: Sentinel) -> Bool {
        if case .fulfilled(let seen) = self { return seen == value }
        return false
    }

    func isRejected(with error: SentinelError) -> Bool {
        if case .rejected(let seen) = self { return (seen as? SentinelError) == error }
        return false
    }

    var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    /// Same outcome: same sentinel, or same sentinel error (other errors never compare equal).
    func same(as other: Outcome) -> Bool {
        switch (self, other) {
        case (.fulfilled(let a), .fulfilled(let b)): a == b
        case (.rejected(let a), .rejected(let b)):
            (a as? SentinelError).map { $0 == (b as? SentinelError) } ?? false
        default: false
        }
    }
}
