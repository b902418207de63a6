// demo-hydra-pending-leak: a pending Hydra promise with one `then` is never freed once nothing holds it.
//
// Hydra's `then` makes its derived promise with a body that captures the source promise (Promise+Then.swift:78-101),
// and the body is kept in the derived promise after it ran (Promise.swift:50, 144, 156-178). Running it registers
// observers on the source (Promise.swift:245-256) whose closures capture the derived promise's `resolve`, that is
// the derived promise itself (Promise.swift:168-172). While the source is pending: source -> observers -> derived ->
// body -> source, a cycle that only settling the source breaks (Promise.swift:211).
import Dispatch
import Foundation
@preconcurrency import Hydra

/// Weak references to a source promise and the promise its `then` returned.
final class Watch {
    weak var source: Promise<Int>?
    weak var derived: Promise<Int>?
}

/// Makes a pending promise and one `then` on it, settles the source if asked, and lets go of both.
func makeAndDrop(settle: Bool, on queue: DispatchQueue) -> Watch {
    let context = Context.custom(queue: queue)
    let watch = Watch()
    let source = Promise<Int>()
    let derived = source.then(in: context) { (value: Int) -> Int in value + 1 }
    watch.source = source
    watch.derived = derived
    queue.sync {}  // the derived promise's body, which registers the observers, has run on `queue`
    if settle { source.resolve(1) }
    return watch  // `source` and `derived` go out of scope here
}

/// Lets every block Hydra queued on `queue` run (three rounds: body, observer, settlement).
func drain(_ queue: DispatchQueue) {
    for _ in 0..<3 { queue.sync {} }
}

let queue = DispatchQueue(label: "demo.hydra.leak")
let pendingCase = makeAndDrop(settle: false, on: queue)
drain(queue)
let settledCase = makeAndDrop(settle: true, on: queue)
drain(queue)

print("Hydra 2.0.6: `let d = Promise<Int>().then(in: context) { $0 + 1 }`, then both dropped")
print(
    "pending source dropped: source alive = \(pendingCase.source != nil), derived alive = \(pendingCase.derived != nil)"
)
print(
    "settled source dropped: source alive = \(settledCase.source != nil), derived alive = \(settledCase.derived != nil)"
)
print("expected (suite swift.release, \"a pending promise nothing holds\"): both freed in both cases")
print(
    pendingCase.source != nil && pendingCase.derived != nil
        ? "observed: the pending pair is never freed (retain cycle source -> observer -> derived -> body -> source)"
        : "observed: the pending pair was freed")
