// Scenario 1 with plain GCD, the baseline the promise styles replace: `DispatchGroup` enter/leave around each request
// and `notify` once both have answered. Copied into docs/guide.md like the other samples; GuideTests runs it.

import Dispatch

// guide:begin gcd-1
func showScreen(_ backend: Backend, on queue: DispatchQueue, completion: @escaping (String) -> Void) {
    let group = DispatchGroup()
    var data1 = ""  // each is written by one response
    var data2 = ""  // and read only after `notify`
    group.enter()  // enter before the request starts, leave when its response has arrived
    backend.fetch("data1") { result in
        data1 = (try? result.get()) ?? "?"
        group.leave()
    }
    group.enter()
    backend.fetch("data2") { result in
        data2 = (try? result.get()) ?? "?"
        group.leave()
    }
    group.notify(queue: queue) {
        backend.note("push screen with \(data1) and \(data2)")
        completion("screen(\(data1), \(data2))")
    }
}
// guide:end gcd-1
