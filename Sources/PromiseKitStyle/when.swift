import Dispatch

// The handlers a `when` registers on its inputs hold what the inputs gave (a `WhenValues`), never the inputs: an
// input that never settles would otherwise keep the others, and itself, alive through the result's handler.

/// What the inputs of one `when` gave, by input order, as they settle.
private typealias WhenValues<T> = Barriered<[T?]>

/// Fulfils when every thenable has fulfilled, keeping each value in `values`; rejects with the first rejection.
private func fulfilledCountdown<U: Thenable>(
    _ thenables: [U], keeping values: WhenValues<U.T>? = nil
) -> Promise<Void> {
    guard !thenables.isEmpty else { return Promise() }
    let rp = Promise<Void>(.pending)
    let remaining = Barriered(thenables.count)
    for (index, thenable) in thenables.enumerated() {
        thenable.pipe {
            switch $0 {
            case .rejected(let error):
                rp.seal(.rejected(error))
            case .fulfilled(let value):
                values?.write { $0[index] = value }
                let left = remaining.write { count -> Int in
                    count -= 1
                    return count
                }
                if left == 0 { rp.seal(.fulfilled(())) }
            }
        }
    }
    return rp
}

/// Resolves when every thenable has resolved, either way, keeping each result in `results`.
private func resolvedCountdown<U: Thenable>(
    _ thenables: [U], keeping results: WhenValues<Result<U.T>>? = nil
) -> Guarantee<Void> {
    guard !thenables.isEmpty else { return Guarantee() }
    let rg = Guarantee<Void>(.pending)
    let remaining = Barriered(thenables.count)
    for (index, thenable) in thenables.enumerated() {
        thenable.pipe { result in
            results?.write { $0[index] = result }
            let left = remaining.write { count -> Int in
                count -= 1
                return count
            }
            if left == 0 { rg.seal(()) }
        }
    }
    return rg
}

/// Space for the values of `count` inputs.
private func whenValues<T>(_ count: Int) -> WhenValues<T> {
    WhenValues(Array(repeating: nil, count: count))
}

/// `thenable` as a `Void` promise, as `asVoid()` makes it, that also keeps its value in `values` at `index`.
private func keeping<U: Thenable>(_ thenable: U, in values: WhenValues<Any>, at index: Int) -> Promise<Void> {
    thenable.map(on: nil) { value in values.write { $0[index] = value } }
}

/// `guarantee` as a `Void` guarantee, as `asVoid()` makes it, that also keeps its value in `values` at `index`.
private func keeping<T>(_ guarantee: Guarantee<T>, in values: WhenValues<Any>, at index: Int) -> Guarantee<Void> {
    guarantee.map(on: nil) { value in values.write { $0[index] = value } }
}

/// The value kept at `index`, as a `T`.
private func kept<T>(_ values: WhenValues<Any>, _ index: Int, as _: T.Type = T.self) -> T {
    values.read { $0[index]! as! T }
}

/// Waits for every promise to fulfil and gives their values in input order; rejects as soon as one rejects (the
/// others keep running). An empty array fulfils with `[]`.
///
///     when(fulfilled: [fetch(a), fetch(b)]).done { pages in ... }
public func when<U: Thenable>(fulfilled thenables: [U]) -> Promise<[U.T]> {
    let values: WhenValues<U.T> = whenValues(thenables.count)
    return fulfilledCountdown(thenables, keeping: values).map(on: nil) { values.read { $0.map { $0! } } }
}

/// Waits for every thenable of a mixed array (promises and guarantees of any value types) to fulfil and gives their
/// values in input order, as `Any`; rejects as soon as one rejects.
///
///     when(fulfilled: [fetchUser(), Guarantee.value(42)] as [any Thenable]).done { values in ... }
public func when(fulfilled thenables: [any Thenable]) -> Promise<[Any]> {
    let values: WhenValues<Any> = whenValues(thenables.count)
    let voids = thenables.enumerated().map { keeping($1, in: values, at: $0) }
    return fulfilledCountdown(voids).map(on: nil) { values.read { $0.map { $0! } } }
}

/// Waits for every `Void` promise to fulfil.
public func when<U: Thenable>(fulfilled promises: U...) -> Promise<Void> where U.T == Void {
    fulfilledCountdown(promises)
}

/// Waits for every `Void` promise to fulfil.
public func when<U: Thenable>(fulfilled promises: [U]) -> Promise<Void> where U.T == Void {
    fulfilledCountdown(promises)
}

/// Waits for both to fulfil.
///
///     when(fulfilled: fetchUser(), fetchSettings()).done { user, settings in ... }
public func when<U: Thenable, V: Thenable>(fulfilled pu: U, _ pv: V) -> Promise<(U.T, V.T)> {
    let values: WhenValues<Any> = whenValues(2)
    return fulfilledCountdown([keeping(pu, in: values, at: 0), keeping(pv, in: values, at: 1)]).map(on: nil) {
        (kept(values, 0, as: U.T.self), kept(values, 1, as: V.T.self))
    }
}

/// Waits for all three to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable>(fulfilled pu: U, _ pv: V, _ pw: W) -> Promise<(U.T, V.T, W.T)> {
    let values: WhenValues<Any> = whenValues(3)
    let voids = [keeping(pu, in: values, at: 0), keeping(pv, in: values, at: 1), keeping(pw, in: values, at: 2)]
    return fulfilledCountdown(voids).map(on: nil) {
        (kept(values, 0, as: U.T.self), kept(values, 1, as: V.T.self), kept(values, 2, as: W.T.self))
    }
}

/// Waits for all four to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X
) -> Promise<(U.T, V.T, W.T, X.T)> {
    let values: WhenValues<Any> = whenValues(4)
    let voids = [
        keeping(pu, in: values, at: 0), keeping(pv, in: values, at: 1), keeping(pw, in: values, at: 2),
        keeping(px, in: values, at: 3),
    ]
    return fulfilledCountdown(voids).map(on: nil) {
        (
            kept(values, 0, as: U.T.self), kept(values, 1, as: V.T.self), kept(values, 2, as: W.T.self),
            kept(values, 3, as: X.T.self)
        )
    }
}

/// Waits for all five to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable, Y: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X, _ py: Y
) -> Promise<(U.T, V.T, W.T, X.T, Y.T)> {
    let values: WhenValues<Any> = whenValues(5)
    let voids = [
        keeping(pu, in: values, at: 0), keeping(pv, in: values, at: 1), keeping(pw, in: values, at: 2),
        keeping(px, in: values, at: 3), keeping(py, in: values, at: 4),
    ]
    return fulfilledCountdown(voids).map(on: nil) {
        (
            kept(values, 0, as: U.T.self), kept(values, 1, as: V.T.self), kept(values, 2, as: W.T.self),
            kept(values, 3, as: X.T.self), kept(values, 4, as: Y.T.self)
        )
    }
}

/// Pulls promises from `promiseIterator`, at most `concurrently` pending at a time, and fulfils with all their
/// values in the order generated; rejects with the first rejection and then stops pulling. A concurrency below 1
/// rejects with `PMKError.badInput`. The iterator is called serially, never on two threads at once.
///
///     let downloads = AnyIterator(urls.lazy.map { download($0) }.makeIterator())
///     when(fulfilled: downloads, concurrently: 3).done { files in ... }
public func when<It: IteratorProtocol>(fulfilled promiseIterator: It, concurrently: Int) -> Promise<[It.Element.T]>
where It.Element: Thenable {
    guard concurrently > 0 else { return Promise(error: PMKError.badInput) }
    let root = Promise<[It.Element.T]>(.pending)
    let pump = ConcurrencyPump(promiseIterator, limit: concurrently, stopOnRejection: true) { outcome in
        switch outcome {
        case .rejected(let error): root.seal(.rejected(error))
        case .fulfilled(let thenables): root.seal(.fulfilled(thenables.map { $0.value! }))
        }
    }
    pump.pump()
    return root
}

/// Pulls promises from `promiseIterator`, at most `concurrently` pending at a time, and resolves with all their
/// results in the order generated, whatever each one's outcome. A concurrency below 1 gives
/// `[.rejected(PMKError.badInput)]`.
public func when<It: IteratorProtocol>(resolved promiseIterator: It, concurrently: Int) -> Guarantee<
    [Result<It.Element.T>]
> where It.Element: Thenable {
    guard concurrently > 0 else { return .value([.rejected(PMKError.badInput)]) }
    let root = Guarantee<[Result<It.Element.T>]>(.pending)
    let pump = ConcurrencyPump(promiseIterator, limit: concurrently, stopOnRejection: false) { outcome in
        if case .fulfilled(let thenables) = outcome { root.seal(thenables.map { $0.result! }) }
    }
    pump.pump()
    return root
}

/// The bookkeeping of `when(_:concurrently:)`. One thread at a time "pumps" (pulls from the iterator and starts
/// promises); a completion that arrives while another thread pumps only asks it to look again.
private final class ConcurrencyPump<It: IteratorProtocol>: @unchecked Sendable where It.Element: Thenable {
    private struct State {
        var running = 0
        var started: [It.Element] = []
        var exhausted = false
        var finished = false
        var pumping = false
        var pumpAgain = false
    }

    private var iterator: It  // touched only by the thread that holds `pumping`
    private let limit: Int
    private let stopOnRejection: Bool
    private let finish: (Result<[It.Element]>) -> Void
    private let state = Barriered(State())

    init(
        _ iterator: It, limit: Int, stopOnRejection: Bool,
        finish: @escaping (Result<[It.Element]>) -> Void
    ) {
        self.iterator = iterator
        self.limit = limit
        self.stopOnRejection = stopOnRejection
        self.finish = finish
    }

    func pump() {
        let entered = state.write { state -> Bool in
            if state.pumping {
                state.pumpAgain = true
                return false
            }
            state.pumping = true
            return true
        }
        guard entered else { return }
        while true {
            let mayStart = state.read { !$0.finished && !$0.exhausted && $0.running < limit }
            if mayStart {
                let next = iterator.next()
                state.write { state in
                    if let next {
                        state.running += 1
                        state.started.append(next)
                    } else {
                        state.exhausted = true
                    }
                }
                if let next { next.pipe { [self] in completed($0) } }
                continue
            }
            // Nothing to start: leave, unless a completion asked for another look meanwhile.
            let step = state.write { state -> Step in
                if state.pumpAgain {
                    state.pumpAgain = false
                    return .again
                }
                state.pumping = false
                guard state.exhausted, state.running == 0, !state.finished else { return .leave }
                state.finished = true
                return .finish(state.started)
            }
            switch step {
            case .again: continue
            case .leave: return
            case .finish(let all):
                finish(.fulfilled(all))
                return
            }
        }
    }

    private enum Step {
        case again, leave
        case finish([It.Element])
    }

    private func completed(_ result: Result<It.Element.T>) {
        if case .rejected(let error) = result, stopOnRejection {
            let first = state.write { state -> Bool in
                defer { state.finished = true }
                return !state.finished
            }
            if first { finish(.rejected(error)) }
            return
        }
        state.write { $0.running -= 1 }
        pump()
    }
}

/// Waits for every promise to resolve, either way, and gives their results in input order.
public func when<T>(resolved promises: Promise<T>...) -> Guarantee<[Result<T>]> {
    when(resolved: promises)
}

/// Waits for every promise to resolve, either way, and gives their results in input order.
public func when<T>(resolved promises: [Promise<T>]) -> Guarantee<[Result<T>]> {
    let results: WhenValues<Result<T>> = whenValues(promises.count)
    return resolvedCountdown(promises, keeping: results).map(on: nil) { results.read { $0.map { $0! } } }
}

/// Waits for every `Void` guarantee.
public func when(_ guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
}

/// Waits for every guarantee and gives their values in input order.
public func when<T>(_ guarantees: Guarantee<T>...) -> Guarantee<[T]> {
    when(guarantees: guarantees)
}

/// Waits for every `Void` guarantee.
public func when(guarantees: [Guarantee<Void>]) -> Guarantee<Void> {
    resolvedCountdown(guarantees)
}

/// Waits for every guarantee and gives their values in input order.
public func when<T>(guarantees: [Guarantee<T>]) -> Guarantee<[T]> {
    let results: WhenValues<Result<T>> = whenValues(guarantees.count)
    return resolvedCountdown(guarantees, keeping: results).map(on: nil) {
        results.read {
            $0.map { result -> T in
                guard case .fulfilled(let value)? = result else { preconditionFailure("a guarantee rejected") }
                return value
            }
        }
    }
}

/// Waits for both guarantees.
public func when<U, V>(guarantees gu: Guarantee<U>, _ gv: Guarantee<V>) -> Guarantee<(U, V)> {
    let values: WhenValues<Any> = whenValues(2)
    return resolvedCountdown([keeping(gu, in: values, at: 0), keeping(gv, in: values, at: 1)]).map(on: nil) {
        (kept(values, 0, as: U.self), kept(values, 1, as: V.self))
    }
}

/// Waits for all three guarantees.
public func when<U, V, W>(guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>) -> Guarantee<(U, V, W)> {
    let values: WhenValues<Any> = whenValues(3)
    let voids = [keeping(gu, in: values, at: 0), keeping(gv, in: values, at: 1), keeping(gw, in: values, at: 2)]
    return resolvedCountdown(voids).map(on: nil) {
        (kept(values, 0, as: U.self), kept(values, 1, as: V.self), kept(values, 2, as: W.self))
    }
}

/// Waits for all four guarantees.
public func when<U, V, W, X>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>
) -> Guarantee<(U, V, W, X)> {
    let values: WhenValues<Any> = whenValues(4)
    let voids = [
        keeping(gu, in: values, at: 0), keeping(gv, in: values, at: 1), keeping(gw, in: values, at: 2),
        keeping(gx, in: values, at: 3),
    ]
    return resolvedCountdown(voids).map(on: nil) {
        (
            kept(values, 0, as: U.self), kept(values, 1, as: V.self), kept(values, 2, as: W.self),
            kept(values, 3, as: X.self)
        )
    }
}

/// Waits for all five guarantees.
public func when<U, V, W, X, Y>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>, _ gy: Guarantee<Y>
) -> Guarantee<(U, V, W, X, Y)> {
    let values: WhenValues<Any> = whenValues(5)
    let voids = [
        keeping(gu, in: values, at: 0), keeping(gv, in: values, at: 1), keeping(gw, in: values, at: 2),
        keeping(gx, in: values, at: 3), keeping(gy, in: values, at: 4),
    ]
    return resolvedCountdown(voids).map(on: nil) {
        (
            kept(values, 0, as: U.self), kept(values, 1, as: V.self), kept(values, 2, as: W.self),
            kept(values, 3, as: X.self), kept(values, 4, as: Y.self)
        )
    }
}
