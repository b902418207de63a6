import Dispatch
import PromisePlumbing

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
        flags: DispatchWorkItemFlags = [], execute body: @escaping PMKThrowingThunk<T>
    ) -> Promise<T> {
        let promise = Promise<T>(.pending)
        let box = UncheckedSendable(promise.box)  // sealed on this queue, under its barrier, whatever `T`
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) {
            do {
                box.value.seal(.fulfilled(try work.value()))
            } catch {
                box.value.seal(.rejected(error))
            }
        }
        return promise
    }

    /// Runs `body` on this queue and returns a guarantee of its result.
    ///
    ///     DispatchQueue.global().async(.promise) { md5(input) }.done { md5 in ... }
    public final func async<T>(
        _: PMKNamespacer, group: DispatchGroup? = nil, qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [], execute body: @escaping PMKThunk<T>
    ) -> Guarantee<T> {
        let guarantee = Guarantee<T>(.pending)
        let box = UncheckedSendable(guarantee.box)  // sealed on this queue, under its barrier, whatever `T`
        let work = UncheckedSendable(body)
        async(group: group, qos: qos, flags: flags) { box.value.seal(work.value()) }
        return guarantee
    }
}
