// The six scenarios of docs/guide.md with async/await, for contrast. The regions between `guide:begin` and
// `guide:end` are copied verbatim into the guide (GuideTests checks that they match); `AsyncTour.run` is how the tour
// and the tests run them.

import Dispatch

// MARK: 1. Two fetches, then one step that needs both

// guide:begin async-1
func showScreen(_ store: AsyncStore) async throws -> String {
    async let data1 = store.fetch("data1")  // both requests start now
    async let data2 = store.fetch("data2")
    let (first, second) = try await (data1, data2)
    store.note("push screen with \(first) and \(second)")
    return "screen(\(first), \(second))"
}
// guide:end async-1

// MARK: 2. A chain of asynchronous steps

// guide:begin async-2
func visitTwice(_ store: AsyncStore) async throws -> Record {
    var record = try await store.query("ada")
    store.note("modify \(record)")
    _ = try await store.save(record.visited())
    record = try await store.query("ada")
    store.note("modify \(record)")
    return try await store.save(record.visited())
}
// guide:end async-2

// MARK: 3. Serial and parallel deletes

// guide:begin async-3
func deleteOneByOne(_ items: [String], _ store: AsyncStore) async throws {
    for item in items {
        try await store.delete(item)
    }
}

func deleteAllAtOnce(_ items: [String], _ store: AsyncStore) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for item in items {
            group.addTask { try await store.delete(item) }
        }
        try await group.waitForAll()
    }
}
// guide:end async-3

// MARK: 4. Choosing where each step runs

// guide:begin async-4
func showReport(_ store: AsyncStore, ui: isolated any Actor = MainActor.shared) async throws -> String {
    let raw = try await store.fetch("report")
    let text = await parse(raw, store)  // heavy work: off the UI
    store.note("show \(text)")  // UI work: this function is isolated to `ui`, the main actor by default
    return text
}

@concurrent func parse(_ raw: String, _ store: AsyncStore) async -> String {
    store.note("parse \(raw)")  // @concurrent: runs on the global executor, never on the caller's actor
    return raw.uppercased()
}
// guide:end async-4

// MARK: 5. Cancelling work in flight

// guide:begin async-5
func openArticle(_ store: AsyncStore) async throws -> String {
    let article = try await store.fetch("article")
    store.note("got \(article); load its images")
    let images = try await store.fetch("images")  // cancelling the task aborts this request
    store.note("render \(images)")
    return images
}
// guide:end async-5

// MARK: 6. Errors: retrying, timing out, recovering

// guide:begin async-6
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
func fetchWithRetry(_ name: String, attempts: Int, _ store: AsyncStore) async throws -> String {
    var attempt = 1
    while true {
        do {
            return try await store.fetch(name)
        } catch let error where attempt < attempts {
            store.note("retry after \(error)")
            try await Task.sleep(for: .milliseconds(10))
            attempt += 1
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
func fetchWithTimeout(_ name: String, seconds: Double, _ store: AsyncStore) async throws -> String {
    try await withThrowingTaskGroup(of: String.self) { group in
        group.addTask { try await store.fetch(name) }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw StoreError.timedOut(name)
        }
        defer { group.cancelAll() }  // the loser is cancelled: a late fetch is aborted
        return try await group.next()!
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func loadWithFallback(_ store: AsyncStore) async -> String {
    do {
        _ = try await fetchWithRetry("flaky", attempts: 3, store)
        return try await fetchWithTimeout("slow", seconds: 0.05, store)
    } catch {
        store.note("recover from \(error)")
        return "cached-data"
    }
}
// guide:end async-6

/// Runs the async/await version of each scenario for the tour and the tests.
enum AsyncTour {
    static func run(_ scenario: Int, _ store: AsyncStore, ui: UITarget) async throws -> String {
        switch scenario {
        case 1:
            return try await showScreen(store)
        case 2:
            return try await visitTwice(store).description
        case 3:
            try await deleteOneByOne(["a", "b"], store)
            store.note("serial deletes done; now the parallel ones")
            try await deleteAllAtOnce(["c", "d"], store)
            return "left: \(store.backend.remainingItems.sorted())"
        case 4:
            switch ui {
            case .main: return try await showReport(store)
            case .standIn(_, let actor): return try await showReport(store, ui: actor)
            }
        case 5:
            let cancelled = CancelFlag()
            let running = Locked<Task<String, any Error>?>(nil)
            store.backend.whenStarted("fetch images") {
                store.note("user taps Cancel")
                cancelled.cancel()
                running.get()?.cancel()
            }
            let task = Task { try await openArticle(store) }
            running.set(task)
            if cancelled.isCancelled { task.cancel() }
            return try await task.value
        default:
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return "skipped: needs Task.sleep(for:)" }
            return await loadWithFallback(store)
        }
    }
}
