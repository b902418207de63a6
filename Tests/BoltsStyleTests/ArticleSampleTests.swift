import BoltsStyle
import Dispatch
import Foundation
import TestSupport
import Testing

// Mirrors every code sample of the article "How BFTask works" (HowBFTaskWorks.md), so the samples
// keep compiling and doing what the article says. Keep the two in step.

final class User: @unchecked Sendable {
    var id: Int
    var name: String

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    func renamed(_ name: String) -> User {
        User(id: id, name: name)
    }
}

struct Item: Hashable {
    var id: Int
}

struct NotFound: Error {}

/// The small store API the article assumes, backed by a serial queue.
final class Store: @unchecked Sendable {
    let queue = DispatchQueue(label: "store")
    var users: [Int: String] = [1: "Grace", 7: "Alan", 42: "Ada"]
    var items: Set<Item> = []
    var log: [String] = []
    var failingItem: Item?

    func fetchUserAsync(id: Int) -> BFTask<User> {
        BFTask.execute(.queue(queue)) {
            guard let name = self.users[id] else { throw NotFound() }
            return User(id: id, name: name)
        }
    }

    func saveAsync(_ user: User) -> BFTask<User> {
        BFTask.execute(.queue(queue)) {
            self.users[user.id] = user.name
            self.log.append("save \(user.id)")
            return user
        }
    }

    func deleteAsync(_ item: Item) -> BFTask<Void> {
        BFTask.execute(.queue(queue)) {
            if item == self.failingItem { throw NotFound() }
            self.items.remove(item)
            self.log.append("delete \(item.id)")
        }
    }

    func snapshot<T>(_ read: () -> T) -> T { queue.sync(execute: read) }
}

/// What the samples print, kept for their tests to check rather than written among the test results.
private let printed = Locked<[String]>([])

/// The samples' `print`, spelled as the article shows it: it keeps the line in `printed`.
private func print(_ line: String) { printed.withLock { $0.append(line) } }

@Suite("Article samples")
struct ArticleSampleTests {
    let store = Store()

    // Free-function spellings used by the article.
    func fetchUserAsync(id: Int) -> BFTask<User> { store.fetchUserAsync(id: id) }
    func saveAsync(_ user: User) -> BFTask<User> { store.saveAsync(user) }
    func deleteAsync(_ item: Item) -> BFTask<Void> { store.deleteAsync(item) }

    // MARK: Landing page

    @Test(.offThePool) func landingPageSample() {
        let done = fetchUserAsync(id: 42).continueOnSuccessWithTask { user in
            saveAsync(user.renamed("Ada"))
        }.continueWith { task in
            if let error = task.error { print("failed: \(error)") }
        }
        done.waitForTest()
        #expect(store.snapshot { store.log } == ["save 42"])
        #expect(!printed.withLock { $0 }.contains { $0.hasPrefix("failed: ") })
    }

    // MARK: The order of callbacks

    @Test func theDrainingThreadsOwnCallbackRunsNested() {
        let source = BFTaskCompletionSource<Int>()
        nonisolated(unsafe) var order: [String] = []
        source.task.continueWith(.immediate) { task in
            order.append("A")
            task.continueWith(.immediate) { _ in order.append("C") }
        }
        source.task.continueWith(.immediate) { _ in order.append("B") }
        source.set(result: 1)
        print("\(order)")  // ["A", "C", "B"]
        #expect(order == ["A", "C", "B"])
        #expect(printed.withLock { $0 }.contains(#"["A", "C", "B"]"#))
    }

    // MARK: Fetch, then save

    func renameUser(id: Int, to name: String) -> BFTask<Void> {
        fetchUserAsync(id: id).continueOnSuccessWithTask { user in
            user.name = name
            return saveAsync(user)
        }.continueWith { task in
            if task.cancelled {
                print("rename cancelled")
            } else if let error = task.error {
                print("rename failed: \(error)")
            } else {
                print("renamed to \(task.result!.name)")
            }
        }
    }

    @Test func fetchThenSave() {
        renameUser(id: 1, to: "Grace Hopper").waitForTest()
        #expect(store.snapshot { store.users[1] } == "Grace Hopper")
        // A failed fetch skips the save and reaches the final continuation.
        renameUser(id: 99, to: "Nobody").waitForTest()
        #expect(store.snapshot { store.log } == ["save 1"])
        #expect(printed.withLock { $0 }.contains("renamed to Grace Hopper"))
        #expect(printed.withLock { $0 }.contains("rename failed: NotFound()"))
    }

    // MARK: Serial deletes

    func deleteSerially(_ items: [Item]) -> BFTask<Void> {
        var task = BFTask<Void>(())
        for item in items {
            task = task.continueWithTask { _ in deleteAsync(item) }
        }
        return task
    }

    @Test(.offThePool) func serialDeletes() {
        let items = (1...5).map(Item.init(id:))
        store.queue.sync { store.items = Set(items) }
        let task = deleteSerially(items)
        task.waitForTest()
        #expect(task.completed && !task.faulted)
        #expect(store.snapshot { store.log } == items.map { "delete \($0.id)" })
        #expect(store.snapshot { store.items.isEmpty })
    }

    // MARK: Parallel deletes

    func deleteInParallel(_ items: [Item]) -> BFTask<Void> {
        BFTask.whenAll(items.map { deleteAsync($0) })
    }

    @Test(.offThePool) func parallelDeletes() {
        let items = (1...5).map(Item.init(id:))
        store.queue.sync { store.items = Set(items) }
        deleteInParallel(items).waitForTest()
        #expect(store.snapshot { store.items.isEmpty })

        store.queue.sync { store.failingItem = Item(id: 3) }
        let failing = deleteInParallel(items)
        failing.waitForTest()
        #expect((failing.error as? BFAggregateError)?.errors.count == 1)
    }

    // MARK: Choosing an executor

    let parsing = DispatchQueue(label: "parsing")

    func loadReport(_ data: BFTask<Data>, show: @escaping @Sendable (String) -> Void) -> BFTask<Void> {
        data.continueOnSuccessWith(.queue(parsing)) { bytes in
            String(decoding: bytes, as: UTF8.self)
        }.continueOnSuccessWith(.immediate) { text in
            text.trimmingCharacters(in: .whitespacesAndNewlines)
        }.continueOnSuccessWith(.mainThread) { text in
            show(text)
        }
    }

    @Test(.offThePool) func choosingAnExecutor() {
        // The last step runs on the main queue, which this test does not serve: check the steps
        // before it, and that the report is not shown on any other thread.
        let shownElsewhere = Counter()
        let report = loadReport(BFTask(Data("  total: 3 \n".utf8))) { _ in
            if !Thread.isMainThread { shownElsewhere.increment() }
        }
        _ = report
        let parsed = BFTask(Data(" 42 ".utf8)).continueOnSuccessWith(.queue(parsing)) { bytes in
            String(decoding: bytes, as: UTF8.self)
        }.continueOnSuccessWith(.immediate) { text in
            text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        parsed.waitForTest()
        #expect(parsed.result == "42")
    }

    // MARK: Cancelling

    @Test(.offThePool) func cancelling() {
        let gate = DispatchSemaphore(value: 0)
        store.queue.async { gate.wait() }  // hold the store so the fetch is still running

        let cancellation = BFCancellationTokenSource()
        let saved = fetchUserAsync(id: 7).continueOnSuccessWithTask(cancellationToken: cancellation.token) { user in
            saveAsync(user)
        }
        cancellation.cancel()  // if the fetch is still running, the save never starts

        gate.signal()
        saved.waitForTest()
        #expect(saved.cancelled)
        #expect(store.snapshot { store.log }.isEmpty)
    }

    // MARK: Awaiting a task

    func currentUserName() async throws -> String {
        try await fetchUserAsync(id: 1).async().name
    }

    @Test func awaitingATask() async throws {
        #expect(try await currentUserName() == "Grace")
        let greeting = BFTask<String> { try await "Hello, " + currentUserName() }
        #expect(try await greeting.async() == "Hello, Grace")
    }
}
