import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    /// Behaviours of Google Promises 2.4.1 that the differential traces found and FBLStyle now matches, one test each,
    /// with the smallest program that showed it (docs/differential-traces.md). Where a promise is settled while blocks
    /// are on their way to a queue, the queue is held until the settling call returns, so that what each test checks
    /// happens every time.
    @Suite("Found by the differential traces") struct TraceFindings {
        /// `n0=pending; n1=value 3; n2=then n1 m n0; n3=catch n0 q2; n4=catch n2 q2; reject n0 E4`: Google runs h3,
        /// then h4. The promise `then` returned adopts n0 through the block's queue `m`, as one more block there, so
        /// n2 is rejected only after n0's own handler (h3) is on its way.
        @Test func adoptingAReturnedPromiseGoesThroughTheBlocksQueue() async {
            let m = DispatchQueue(label: "TraceFindings.m")
            let q2 = DispatchQueue(label: "TraceFindings.q2")
            let n0 = Promise<Int>.pending()
            let n2 = Promise(3).then(on: m) { _ in n0 }
            m.sync {}  // the block has returned n0: n2 observes it
            let log = Locked<[String]>([])
            let n3 = n0.catch(on: q2) { _ in log.withLock { $0.append("h3") } }
            let n4 = n2.catch(on: q2) { _ in log.withLock { $0.append("h4") } }
            m.suspend()
            n0.reject(TestError(code: 4))
            m.resume()
            _ = await n3.errorAfterWaiting()
            _ = await n4.errorAfterWaiting()
            q2.sync {}
            #expect(log.withLock { $0 } == ["h3", "h4"])
        }

        /// `n0=pending; n1=race m n0; n2=then n1 m t:E3; n3=then n0 m v1; fulfill n0 7` (and the same with `all` and
        /// `any`): Google runs h3, then h2. The combinator observes its inputs on its queue `m`, so n1 settles there,
        /// after the block of n0's own `then`, which was on its way first.
        @Test(arguments: ["race", "all", "any"])
        func combinatorsObserveTheirInputsOnTheirQueue(_ combinator: String) async {
            let m = DispatchQueue(label: "TraceFindings.m")
            let n0 = Promise<Int>.pending()
            let log: [String]
            switch combinator {
            case "race": log = await handlersAfterFulfilling(n0, combined: race(on: m, [n0]), on: m)
            case "all": log = await handlersAfterFulfilling(n0, combined: all(on: m, [n0]), on: m)
            default: log = await handlersAfterFulfilling(n0, combined: any(on: m, [n0]), on: m)
            }
            #expect(log == ["h3", "h2"])
        }

        /// Once the combinator has observed `n0`, chains h2 on `n1` and h3 on `n0`, both on `m`, fulfils `n0` and
        /// returns the order they ran in.
        private func handlersAfterFulfilling<T>(
            _ n0: Promise<Int>, combined n1: Promise<T>, on m: DispatchQueue
        ) async -> [String] {
            m.sync {}  // the combinator has observed n0
            let log = Locked<[String]>([])
            let n2 = n1.then(on: m) { (_: T) -> Void in log.withLock { $0.append("h2") } }
            let n3 = n0.then(on: m) { (_: Int) -> Void in log.withLock { $0.append("h3") } }
            m.suspend()
            n0.fulfill(7)
            m.resume()
            _ = try? await n2.valueAfterWaiting()
            _ = try? await n3.valueAfterWaiting()
            return log.withLock { $0 }
        }

        /// `n0=error E0; n1=error E2; n2=any m n0 n1`: Google rejects n2 with E0. The first observation on the queue
        /// that finds every input settled and none fulfilled rejects, with its own input's error: the first input's,
        /// when they were all rejected before `any` was called.
        @Test func anyOfRejectedPromisesRejectsWithTheFirstOnesError() async {
            let m = DispatchQueue(label: "TraceFindings.m")
            let n2 = any(on: m, [Promise<Int>(TestError(code: 0)), Promise<Int>(TestError(code: 2))])
            #expect(await n2.errorAfterWaiting() as? TestError == TestError(code: 0))
        }
    }
}
