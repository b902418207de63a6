import Dispatch

/// Fulfils when every thenable has fulfilled; rejects with the first rejection.
private func fulfilledCountdown<U: Thenable>(_ thenables: [U]) -> Promise<Void> {
    guard !thenables.isEmpty else { return Promise() }
    let rp = Promise<Void>(.pending)
    let remaining = Barriered(thenables.count)
    for thenable in thenables {
        thenable.pipe {
            switch $0 {
            case .rejected(let error):
                rp.box.seal(.rejected(error))
            case .fulfilled:
                let left = remaining.write { count -> Int in
                    count -= 1
                    return count
                }
                if left == 0 { rp.box.seal(.fulfilled(())) }
            }
        }
    }
    return rp
}

/// Resolves when every thenable has resolved, either way.
private func resolvedCountdown<U: Thenable>(_ thenables: [U]) -> Guarantee<Void> {
    guard !thenables.isEmpty else { return Guarantee() }
    let rg = Guarantee<Void>(.pending)
    let remaining = Barriered(thenables.count)
    for thenable in thenables {
        thenable.pipe { _ in
            let left = remaining.write { count -> Int in
                count -= 1
                return count
            }
            if left == 0 { rg.box.seal(()) }
        }
    }
    return rg
}

/// Waits for every promise to fulfil and gives their values in input order; rejects as soon as one rejects (the
/// others keep running). An empty array fulfils with `[]`.
///
///     when(fulfilled: [fetch(a), fetch(b)]).done { pages in ... }
public func when<U: Thenable>(fulfilled thenables: [U]) -> Promise<[U.T]> {
    fulfilledCountdown(thenables).map(on: nil) { thenables.map { $0.value! } }
}

/// Waits for every thenable of a mixed array (promises and guarantees of any value types) to fulfil and gives their
/// values in input order, as `Any`; rejects as soon as one rejects.
///
///     when(fulfilled: [fetchUser(), Guarantee.value(42)] as [any Thenable]).done { values in ... }
public func when(fulfilled thenables: [any Thenable]) -> Promise<[Any]> {
    fulfilledCountdown(thenables.map { $0.asVoid() }).map(on: nil) { thenables.map { $0.value! } }
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
    fulfilledCountdown([pu.asVoid(), pv.asVoid()]).map(on: nil) { (pu.value!, pv.value!) }
}

/// Waits for all three to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable>(fulfilled pu: U, _ pv: V, _ pw: W) -> Promise<(U.T, V.T, W.T)> {
    fulfilledCountdown([pu.asVoid(), pv.asVoid(), pw.asVoid()]).map(on: nil) { (pu.value!, pv.value!, pw.value!) }
}

/// Waits for all four to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X
) -> Promise<(U.T, V.T, W.T, X.T)> {
    fulfilledCountdown([pu.asVoid(), pv.asVoid(), pw.asVoid(), px.asVoid()]).map(on: nil) {
        (pu.value!, pv.value!, pw.value!, px.value!)
    }
}

/// Waits for all five to fulfil.
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable, Y: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X, _ py: Y
) -> Promise<(U.T, V.T, W.T, X.T, Y.T)> {
    fulfilledCountdown([pu.asVoid(), pv.asVoid(), pw.asVoid(), px.asVoid(), py.asVoid()]).map(on: nil) {
        (pu.value!, pv.value!, pw.value!, px.value!, py.value!)
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
        case .rejected(let error): root.box.seal(.rejected(error))
        case .fulfilled(let thenables): root.box.seal(.fulfilled(thenables.map { $0.value! }))
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
        if case .fulfilled(let thenables) = outcome { root.box.seal(thenables.map { $0.result! }) }
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
    resolvedCountdown(promises).map(on: nil) { promises.map { $0.result! } }
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
    resolvedCountdown(guarantees).map(on: nil) { guarantees.map { $0.sealedValue! } }
}

/// Waits for both guarantees.
public func when<U, V>(guarantees gu: Guarantee<U>, _ gv: Guarantee<V>) -> Guarantee<(U, V)> {
    resolvedCountdown([gu.asVoid(), gv.asVoid()]).map(on: nil) { (gu.sealedValue!, gv.sealedValue!) }
}

/// Waits for all three guarantees.
public func when<U, V, W>(guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>) -> Guarantee<(U, V, W)> {
    resolvedCountdown([gu.asVoid(), gv.asVoid(), gw.asVoid()]).map(on: nil) {
        (gu.sealedValue!, gv.sealedValue!, gw.sealedValue!)
    }
}

/// Waits for all four guarantees.
public func when<U, V, W, X>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>
) -> Guarantee<(U, V, W, X)> {
    resolvedCountdown([gu.asVoid(), gv.asVoid(), gw.asVoid(), gx.asVoid()]).map(on: nil) {
        (gu.sealedValue!, gv.sealedValue!, gw.sealedValue!, gx.sealedValue!)
    }
}

/// Waits for all five guarantees.
public func when<U, V, W, X, Y>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>, _ gy: Guarantee<Y>
) -> Guarantee<(U, V, W, X, Y)> {
    resolvedCountdown([gu.asVoid(), gv.asVoid(), gw.asVoid(), gx.asVoid(), gy.asVoid()]).map(on: nil) {
        (gu.sealedValue!, gv.sealedValue!, gw.sealedValue!, gx.sealedValue!, gy.sealedValue!)
    }
}
