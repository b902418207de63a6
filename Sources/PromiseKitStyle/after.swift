import Dispatch
import Foundation

/// A guarantee that resolves after `seconds`, from a global queue.
///
///     after(seconds: 1.5).done(on: queue) { retry() }
public func after(seconds: TimeInterval) -> Guarantee<Void> {
    after(deadline: .now() + seconds)
}

/// A guarantee that resolves after `interval`, from a global queue.
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    after(deadline: .now() + interval)
}

private func after(deadline: DispatchTime) -> Guarantee<Void> {
    let rg = Guarantee<Void>(.pending)
    let box = rg.box
    DispatchQueue.global().asyncAfter(deadline: deadline) { box.seal(()) }
    return rg
}
