/// How the suite settles a promise in one of the JavaScript suite's ways (already, immediately, later, elsewhere).
enum Settlement: Sendable {
    case fulfil(Sentinel)
    case reject(SentinelError)

    var verb: String {
        switch self {
        case .fulfil: "fulfilled"
        case .reject: "rejected"
        }
    }

    var outcome: Outcome {
        switch self {
        case .fulfil(let value): .fulfilled(value)
        case .reject(let error): .rejected(error)
        }
    }
}
