// B4's batch, shared by the B4 benchmark and B8's shared-queue shape: `count` pending promises, each with one block on
// `queue` that leaves `group` (entered before chaining, an enter/leave pair as `async(group:)` makes itself), then
// every promise settled. The caller waits on the group.

import BoltsStyle
import Dispatch
import FBLStyle
import PromiseKitStyle

/// One batch of B4 per contender.
public enum FanOut {
    /// The baseline: `count` blocks sent with `async(group:)`.
    public static func gcd(_ count: Int, on queue: DispatchQueue, group: DispatchGroup) {
        for _ in 0..<count { queue.async(group: group) { sink(1) } }
    }

    /// BoltsStyle: a completion source per promise, `continueOnSuccessWith(executor)`, then `set(result:)` on each.
    public static func bolts(_ count: Int, on executor: BFExecutor, group: DispatchGroup) {
        var sources: [BFTaskCompletionSource<Int>] = []
        sources.reserveCapacity(count)
        for _ in 0..<count {
            let source = BFTaskCompletionSource<Int>()
            group.enter()
            source.task.continueOnSuccessWith(executor) {
                sink($0)
                group.leave()
            }
            sources.append(source)
        }
        for source in sources { source.set(result: 1) }
    }

    /// PromiseKitStyle: `done(on: queue)` on each pending promise, ended with `cauterize()` when `cauterize` is true
    /// (as PromiseKit code ends a chain), then `fulfill` on each resolver.
    public static func promiseKit(_ count: Int, on queue: DispatchQueue, group: DispatchGroup, cauterize: Bool) {
        var resolvers: [PromiseKitStyle.Resolver<Int>] = []
        resolvers.reserveCapacity(count)
        for _ in 0..<count {
            let (promise, resolver) = PromiseKitStyle.Promise<Int>.pending()
            group.enter()
            let done = promise.done(on: queue) {
                sink($0)
                group.leave()
            }
            if cauterize { done.cauterize() }
            resolvers.append(resolver)
        }
        for resolver in resolvers { resolver.fulfill(1) }
    }

    /// FBLStyle: `then(on: queue)` on each pending promise, then `fulfill` on each.
    public static func fbl(_ count: Int, on queue: DispatchQueue, group: DispatchGroup) {
        var promises: [FBLStyle.Promise<Int>] = []
        promises.reserveCapacity(count)
        for _ in 0..<count {
            let promise = FBLStyle.Promise<Int>.pending()
            group.enter()
            promise.then(on: queue) { (value: Int) in
                sink(value)
                group.leave()
            }
            promises.append(promise)
        }
        for promise in promises { promise.fulfill(1) }
    }
}
