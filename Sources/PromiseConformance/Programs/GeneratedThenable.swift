// GeneratedThenable.swift: the thenables a generated program builds.
import Dispatch

/// A thenable of a generated program (``Program/ThenableSpec``): `depth` levels, each resolving with the next, the
/// last one settling as the spec's ending says; each level calls back inside its `then`, or later from Dispatch's
/// global queue (`async`); a `noisy` one then also calls the other callback and the same one again, and throws, all
/// of which the promise must ignore (A+ 2.3.3.3.3, 2.3.3.3.4.1).
struct GeneratedThenable: Thenable {
    let spec: Program.ThenableSpec

    init(_ spec: Program.ThenableSpec) {
        self.spec = spec
    }

    /// The value and error a noisy thenable adds after its first call: never the program's own (those count from 1).
    static let noise = (value: Sentinel(0), error: SentinelError(0))

    func then(
        _ resolvePromise: @escaping @Sendable (ThenableValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        let spec = spec
        let callBack: @Sendable () -> Void = {
            if spec.depth > 1 {
                var inner = spec
                inner.depth -= 1
                resolvePromise(.thenable(GeneratedThenable(inner)))
            } else {
                switch spec.ending {
                case .fulfil(let value): resolvePromise(.value(Sentinel(value)))
                case .reject(let error): rejectPromise(SentinelError(error))
                }
            }
            guard spec.noisy else { return }
            rejectPromise(Self.noise.error)
            resolvePromise(.value(Self.noise.value))
        }
        if spec.async {
            DispatchQueue.global().async(execute: callBack)
        } else {
            callBack()
            if spec.noisy { throw Self.noise.error }
        }
    }
}
