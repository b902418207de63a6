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
        let work = UncheckedSendable((box: promise.box, body: body))  // runs once, on this queue, whatever `T`
        async(group: group, qos: qos, flags: flags) {
            do {
                work.value.box.seal(.fulfilled(try work.value.body()))
            } catch {
                work.value.box.seal(.rejected(error))
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
        let work = UncheckedSendable((box: guarantee.box, body: body))  // runs once, on this queue, whatever `T`
        async(group: group, qos: qos, flags: flags) { work.value.box.seal(work.value.body()) }
        return guarantee
    }
}
