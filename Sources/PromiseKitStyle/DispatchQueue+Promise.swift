import Dispatch

/// Used by `DispatchQueue.async(.promise)` to pick PromiseKit's overload over Dispatch's.
public enum PMKNamespacer {
    /// The only case: write `.promise`.
    case promise
}

extension DispatchQueue {
    /// Runs `body` on this queue and returns a promise of its result (rejected if it throws).
    ///
    ///     DispatchQueue.global().async(.promise) { try md5(input) }.done { md5 in ... }
    public final func async<T>(
        _: PMKNamespacer, group: DispatchGroup? = nil, qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [], execute body: @escaping () throws -> T
    ) -> Promise<T> {
        let promise = Promise<T>(.pending)
        let box = promise.box
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) {
            do {
                box.seal(.fulfilled(try work.value()))
            } catch {
                box.seal(.rejected(error))
            }
        }
        return promise
    }

    /// Runs `body` on this queue and returns a guarantee of its result.
    ///
    ///     DispatchQueue.global().async(.promise) { md5(input) }.done { md5 in ... }
    public final func async<T>(
        _: PMKNamespacer, group: DispatchGroup? = nil, qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [], execute body: @escaping () -> T
    ) -> Guarantee<T> {
        let guarantee = Guarantee<T>(.pending)
        let box = guarantee.box
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) { box.seal(work.value()) }
        return guarantee
    }
}
