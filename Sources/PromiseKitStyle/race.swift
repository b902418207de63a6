/// Resolves like whichever thenable resolves first, fulfilled or rejected.
///
///     race(fetch(fromMirror: a), fetch(fromMirror: b)).done { page in ... }
public func race<U: Thenable>(_ thenables: U...) -> Promise<U.T> {
    race(thenables)
}

/// Resolves like whichever thenable resolves first; an empty array rejects with `PMKError.badInput`.
public func race<U: Thenable>(_ thenables: [U]) -> Promise<U.T> {
    guard !thenables.isEmpty else { return Promise(error: PMKError.badInput) }
    let rp = Promise<U.T>(.pending)
    for thenable in thenables {
        thenable.pipe { rp.seal($0) }  // the losers' seals change nothing
    }
    return rp
}

/// Resolves with whichever guarantee resolves first.
public func race<T>(_ guarantees: Guarantee<T>...) -> Guarantee<T> {
    let rg = Guarantee<T>(.pending)
    for guarantee in guarantees {
        guarantee.pipe { (value: T) in rg.seal(value) }
    }
    return rg
}

/// Fulfils with whichever thenable fulfils first, skipping rejections; rejects with `PMKError.noWinner` if all
/// reject, and with `PMKError.badInput` if the array is empty.
public func race<U: Thenable>(fulfilled thenables: [U]) -> Promise<U.T> {
    guard !thenables.isEmpty else { return Promise(error: PMKError.badInput) }
    let rp = Promise<U.T>(.pending)
    let rejections = Barriered(0)
    // The count, not the array: a handler holding the array would hold its own input, and an input that never
    // settles would then never be freed.
    let total = thenables.count
    for thenable in thenables {
        thenable.pipe {
            switch $0 {
            case .fulfilled(let value):
                rp.seal(.fulfilled(value))
            case .rejected:
                let count = rejections.write { count -> Int in
                    count += 1
                    return count
                }
                if count == total { rp.seal(.rejected(PMKError.noWinner)) }
            }
        }
    }
    return rp
}
