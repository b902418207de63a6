import Dispatch
import PromisePlumbing
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    /// The observer list, the hand-off of the first queued observer, and the trampoline for inline observers.
    @Suite struct Observers {
        /// The list hands observers out in the order they were appended, also one appended after the first was
        /// removed, and `take()` leaves it empty.
        @Test func listKeepsRegistrationOrder() {
            var log: [String] = []
            var list = Promise<Int>.ObserverList()
            #expect(list.isEmpty)
            for name in ["a", "b", "c"] {
                list.append(Promise<Int>.Observer(queue: nil) { _ in log.append(name) })
            }
            let first = list.removeFirst()
            list.append(Promise<Int>.Observer(queue: nil) { _ in log.append("d") })
            first?.body(.success(1))
            var taken = list.take()
            #expect(list.isEmpty && !taken.isEmpty)
            taken.notifyEach(of: .success(1))
            #expect(log == ["a", "b", "c", "d"])
            _ = taken.removeFirst()
            _ = taken.removeFirst()
            _ = taken.removeFirst()
            #expect(taken.isEmpty && taken.removeFirst() == nil)
        }

        /// A resolved promise keeps none of its observers: the first, handed off to the promise for its block, and
        /// the others are let go once their blocks have run, while the promise itself lives on.
        @Test(.offThePool) func observersAreLetGoOnceTheirBlocksRan() async throws {
            final class Captured: Sendable {}
            weak var first: Captured?
            weak var second: Captured?
            let promise = Promise<Int>.pending()
            let chained: [Promise<Int>] = [0, 1].map { index in
                let captured = Captured()
                if index == 0 { first = captured } else { second = captured }
                return promise.then(on: serialQueue) { value in
                    withExtendedLifetime(captured) { value + index }
                }
            }
            #expect(first != nil && second != nil)
            promise.fulfill(1)
            for (index, promise) in chained.enumerated() {
                #expect(try await promise.valueAfterWaiting() == 1 + index)
            }
            serialQueue.sync {}  // both blocks have returned, and the queue has let go of them
            #expect(first == nil, "the handed-off first observer")
            #expect(second == nil)
            #expect(promise.isFulfilled)
        }

        /// An inline observer started while another runs on the same thread waits for it to return, so that a long
        /// chain of hand-overs runs as a loop; those started meanwhile run in the order they were started.
        @Test func inlineObserversStartedInsideAnotherRunAfterIt() {
            var log: [Int] = []
            let trampoline = ObserverTrampoline.current
            trampoline.runOrEnqueue(below: ObserverTrampoline.inlineDepthLimit) {
                log.append(1)
                trampoline.runOrEnqueue(below: ObserverTrampoline.inlineDepthLimit) {
                    log.append(3)
                    trampoline.runOrEnqueue(below: ObserverTrampoline.inlineDepthLimit) { log.append(5) }
                }
                trampoline.runOrEnqueue(below: ObserverTrampoline.inlineDepthLimit) { log.append(4) }
                log.append(2)
            }
            #expect(log == [1, 2, 3, 4, 5])
        }

        /// The rule "none nested" on a promise: an inline observer A that registers C on the same promise while the
        /// resolving thread drains does not run C nested: C waits for B, registered before it (A, B, C; Bolts and
        /// PromiseKit give A, C, B).
        @Test func observerTheResolvingThreadRegistersWhileDrainingWaitsItsTurn() {
            var log: [String] = []
            let promise = Promise<Int>.pending()
            promise.observe(on: nil) { _ in
                log.append("A")
                promise.observe(on: nil) { _ in log.append("C") }
            }
            promise.observe(on: nil) { _ in log.append("B") }
            promise.fulfill(1)
            #expect(log == ["A", "B", "C"])
        }

        /// An inline first observer runs inside `fulfill`; a queued one never does.
        @Test(.offThePool) func inlineFirstObserverRunsInsideFulfil() async throws {
            var inline: [Int] = []
            let promise = Promise<Int>.pending()
            promise.observe(on: nil) { inline.append((try? $0.get()) ?? 0) }
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            serialQueue.async {
                started.signal()
                _ = release.wait(timeout: .now() + patience)
            }
            #expect(started.wait(timeout: .now() + patience) == .success)
            let chained = promise.then(on: serialQueue) { $0 + 1 }
            promise.fulfill(1)
            #expect(inline == [1])
            #expect(chained.isPending, "the queued block waits for its queue")
            release.signal()
            #expect(try await chained.valueAfterWaiting() == 2)
        }
    }
}
