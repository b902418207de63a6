// The code samples of PromiseKitStyle.docc (the landing page and "How the handler queue works"), compiled and run
// here so the docs cannot drift from the code. Keep both in step. The article's `QueueBox`, PromiseKit 8's barrier
// spelled with a real DispatchQueue, is the toy model in Tests/ToyModels/QueueBox.swift (GuideTests'
// ArticleSampleTests checks that the article shows it verbatim).
import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

@testable import ToyModels

// MARK: The classic chained-then example

struct User {
    let name: String
}

func login() -> Promise<User> {
    DispatchQueue.global().async(.promise) { User(name: "Ada") }
}

func fetchMessageCount(for user: User) -> Promise<Int> {
    Promise { seal in
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { seal.fulfill(user.name.count) }
    }
}

/// Uses the default queues (`conf.Q`): run it where the main queue is served, or after
/// `conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())`.
func classicChain() -> Promise<String> {
    firstly {
        login()
    }.then { user in
        fetchMessageCount(for: user).map { count in (user, count) }
    }.map { user, count in
        "Hello, \(user.name)! You have \(count) new messages."
    }
}

/// The same chain with every step's queue chosen explicitly.
func classicChain(on queue: DispatchQueue) -> Promise<String> {
    firstly {
        login()
    }.then(on: queue) { user in
        fetchMessageCount(for: user).map(on: queue) { count in (user, count) }
    }.map(on: queue) { user, count in
        "Hello, \(user.name)! You have \(count) new messages."
    }
}

@Suite("Article samples")
struct ArticleSampleTests {
    @Test func classicChainWithExplicitQueues() async throws {
        #expect(try await classicChain(on: testQueue).async() == "Hello, Ada! You have 3 new messages.")
    }

    @Test(.offThePool) func handlerQueueEndToEnd() async throws {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var log: [String] = []
        firstly {
            login()
        }.map(on: testQueue) { user in
            user.name.uppercased()
        }.done(on: testQueue) { name in
            log.append(name)
        }.catch(on: testQueue) { error in
            log.append("failed: \(error)")
        }.finally(on: testQueue) {
            done.signal()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(log == ["ADA"])
    }

    @Test func queueBoxBehavesLikeTheInlineBarrier() {
        let box = QueueBox<Int>()
        var seen: [Int] = []
        box.pipe { seen.append($0) }
        #expect(box.value == nil)
        box.seal(1)
        box.seal(2)  // ignored
        box.pipe { seen.append($0 * 10) }  // already sealed: runs now
        #expect(seen == [1, 10])
        #expect(box.value == 1)
    }
}
