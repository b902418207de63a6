/// A one-shot flag, claimed by the first caller.
final class Once: Sendable {
    private let claimed = Locked(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            let first = !claimed
            claimed = true
            return first
        }
    }
}
