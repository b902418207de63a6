// The eight scenarios of docs/guide.md with async/await, for contrast. The regions between `guide:begin` and
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
    try await withTimeout(seconds, name) { try await store.fetch(name) }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
func withTimeout<T: Sendable>(
    _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw StoreError.timedOut(what)
        }
        defer { group.cancelAll() }  // the loser is cancelled: a late fetch is aborted, a poll loop stops
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

// MARK: 7. A work line: at most three uploads at a time, with progress and Cancel

// guide:begin async-7
func uploadAll(_ files: [String], atMost limit: Int, _ store: AsyncStore) async -> Int {
    await withTaskGroup(of: Bool.self) { group in
        var done = 0
        func count(_ uploaded: Bool) {  // one result at a time, in this task
            guard uploaded else { return }
            done += 1
            store.note("progress \(done)/\(files.count)")
        }
        for (index, file) in files.enumerated() {
            if index >= limit, let uploaded = await group.next() { count(uploaded) }  // wait for a free place
            if Task.isCancelled { break }  // cancelled: start no more; the uploads in flight are aborted
            group.addTask { (try? await store.upload(file)) != nil }
        }
        for await uploaded in group { count(uploaded) }
        return done
    }
}
// guide:end async-7

// MARK: 8. Polling on a schedule

// guide:begin async-8
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
func pollUntilDone(
    _ job: String, every interval: Double, giveUpAfter limit: Double, _ store: AsyncStore
) async throws -> String {
    try await withTimeout(limit, job) {
        while try await store.status(job) != "done" {
            store.note("next poll in \(interval) s")
            try await Task.sleep(for: .seconds(interval))  // throws at once when the task is cancelled
        }
        return "done"
    }
}
// guide:end async-8

/// Runs the async/await version of each scenario for the tour and the tests.
enum AsyncTour {
    static func run(_ scenario: Int, _ store: AsyncStore, ui: UITarget) async throws -> String {
        let story = store.backend.story  // what happens in scenarios 7 and 8
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
            let button = store.backend.cancelButton(tappedAfter: "→ fetch images")
            let task = Task { try await openArticle(store) }
            button.connect { task.cancel() }
            return try await task.value
        case 6:
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return "skipped: needs Task.sleep(for:)" }
            return await loadWithFallback(store)
        case 7:
            let button = store.backend.cancelButton(tappedAfter: story.cancelUploadsAfter)
            let task = Task { await uploadAll(story.files, atMost: story.uploadsAtOnce, store) }
            button.connect { task.cancel() }
            return story.summary(uploaded: await task.value)
        default:
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return "skipped: needs Task.sleep(for:)" }
            let button = store.backend.cancelButton(tappedAfter: story.cancelPollingAfter)
            let task = Task {
                try await pollUntilDone(story.job, every: story.pollInterval, giveUpAfter: story.pollLimit, store)
            }
            button.connect { task.cancel() }
            return try await task.value
        }
    }
}
