// The eight scenarios of docs/guide.md in BoltsStyle. The regions between `guide:begin` and `guide:end` are copied
// verbatim into the guide (GuideTests checks that they match); `BoltsTour.run` is how the tour and the tests run them.

import BoltsStyle
import Dispatch

// MARK: 1. Two fetches, then one step that needs both

// guide:begin bolts-1
func showScreen(_ store: BoltsStore) -> BFTask<String> {
    let data1 = store.fetch("data1")  // both requests start now
    let data2 = store.fetch("data2")
    return BFTask.whenAllResult([data1, data2]).continueOnSuccessWith { both in
        store.note("push screen with \(both[0]) and \(both[1])")
        return "screen(\(both[0]), \(both[1]))"
    }
}
// guide:end bolts-1

// MARK: 2. A chain of asynchronous steps

// guide:begin bolts-2
func visitTwice(_ store: BoltsStore) -> BFTask<Record> {
    store.query("ada").continueOnSuccessWith { record in
        store.note("modify \(record)")
        return record.visited()
    }.continueOnSuccessWithTask { record in
        store.save(record)
    }.continueOnSuccessWithTask { _ in
        store.query("ada")
    }.continueOnSuccessWith { record in
        store.note("modify \(record)")
        return record.visited()
    }.continueOnSuccessWithTask { record in
        store.save(record)
    }
}
// guide:end bolts-2

// MARK: 3. Serial and parallel deletes

// guide:begin bolts-3
func deleteOneByOne(_ items: [String], _ store: BoltsStore) -> BFTask<Void> {
    var task = BFTask<Void>(())
    for item in items {
        task = task.continueOnSuccessWithTask { _ in store.delete(item) }
    }
    return task
}

func deleteAllAtOnce(_ items: [String], _ store: BoltsStore) -> BFTask<Void> {
    BFTask.whenAll(items.map { store.delete($0) })
}
// guide:end bolts-3

// MARK: 4. Choosing where each step runs

// guide:begin bolts-4
func showReport(_ store: BoltsStore, ui: BFExecutor = .mainThread) -> BFTask<String> {
    store.fetch("report").continueOnSuccessWith(.queue(store.background)) { raw in
        store.note("parse \(raw)")  // heavy work: off the UI
        return raw.uppercased()
    }.continueOnSuccessWith(ui) { text in
        store.note("show \(text)")  // UI work: on the main thread
        return text
    }
}
// guide:end bolts-4

// MARK: 5. Cancelling work in flight

// guide:begin bolts-5
func openArticle(_ store: BoltsStore, cancellation: BFCancellationTokenSource) -> BFTask<String> {
    let token = cancellation.token
    return store.fetch("article", cancellationToken: token).continueOnSuccessWithTask(cancellationToken: token) {
        article in
        store.note("got \(article); load its images")
        return store.fetch("images", cancellationToken: token)
    }.continueOnSuccessWith(cancellationToken: token) { images in
        store.note("render \(images)")  // never runs once the token is cancelled
        return images
    }
}
// guide:end bolts-5

// MARK: 6. Errors: retrying, timing out, recovering

// guide:begin bolts-6
func fetchWithRetry(_ name: String, attempts: Int, _ store: BoltsStore) -> BFTask<String> {
    store.fetch(name).continueWithTask { task in
        guard let error = task.error, attempts > 1 else { return task }
        store.note("retry after \(error)")
        return BFTask.withDelay(0.01).continueWithTask { _ in fetchWithRetry(name, attempts: attempts - 1, store) }
    }
}

func fetchWithTimeout(_ name: String, seconds: Double, _ store: BoltsStore) -> BFTask<String> {
    let source = BFTaskCompletionSource<String>()
    store.fetch(name).continueWith { task in
        if let data = task.result { source.trySet(result: data) }
        if let error = task.error { source.trySet(error: error) }
    }
    BFTask.withDelay(seconds).continueWith { _ in source.trySet(error: StoreError.timedOut(name)) }
    return source.task  // the first of the two to complete wins
}

func loadWithFallback(_ store: BoltsStore) -> BFTask<String> {
    fetchWithRetry("flaky", attempts: 3, store).continueOnSuccessWithTask { _ in
        fetchWithTimeout("slow", seconds: 0.05, store)
    }.continueOnErrorWith { error in
        store.note("recover from \(error)")
        return "cached-data"
    }
}
// guide:end bolts-6

// MARK: 7. A work line: at most three uploads at a time, with progress and Cancel

// guide:begin bolts-7
func uploadAll(
    _ files: [String], atMost limit: Int, _ store: BoltsStore, cancellation: BFCancellationTokenSource
) -> BFTask<Int> {
    let token = cancellation.token
    let line = BFExecutor.queue(store.background)  // the line's bookkeeping runs here, one step at a time
    let count = Locked((next: 0, done: 0))  // the bookkeeping, behind a lock the compiler can see
    @Sendable func uploadNext() -> BFTask<Void> {  // one worker: uploads files one by one until none is left
        let file = count.withLock { count -> String? in
            guard count.next < files.count, !token.isCancellationRequested else { return nil }
            count.next += 1
            return files[count.next - 1]
        }
        guard let file else { return BFTask(()) }
        return store.upload(file, cancellationToken: token).continueOnSuccessWithTask(line) { _ in
            let done = count.withLock { count in
                count.done += 1
                return count.done
            }
            store.note("progress \(done)/\(files.count)")
            return uploadNext()
        }
    }
    return BFTask(()).continueWithTask(line) { _ in
        BFTask.whenAll((0..<limit).map { _ in uploadNext() })  // `limit` workers share the files
    }.continueWith(line) { _ in count.get().done }  // cancelled or not: how many were uploaded
}
// guide:end bolts-7

// MARK: 8. Polling on a schedule

// guide:begin bolts-8
func pollUntilDone(
    _ job: String, every interval: Double, giveUpAfter limit: Double, _ store: BoltsStore,
    cancellation: BFCancellationTokenSource
) -> BFTask<String> {
    let token = cancellation.token
    let loop = BFExecutor.queue(store.background)  // every decision is taken here, one at a time
    let result = BFTaskCompletionSource<String>()
    BFTask.withDelay(limit, cancellationToken: token).continueWith(loop) { timer in
        if timer.cancelled { result.tryCancel() } else { result.trySet(error: StoreError.timedOut(job)) }
    }
    @Sendable func poll() {
        guard !result.task.completed else { return }  // done, given up or cancelled: no more polls
        store.status(job).continueWithTask(loop) { answer -> BFTask<Void> in
            if let error = answer.error { result.trySet(error: error) }
            if answer.result == "done" { result.trySet(result: "done") }
            guard !result.task.completed else { return BFTask(()) }
            store.note("next poll in \(interval) s")
            return BFTask.withDelay(interval, cancellationToken: token)  // cancelling the token ends the wait at once
        }.continueOnSuccessWith(loop) { _ in poll() }  // every poll starts on a fresh stack, on `loop`
    }
    poll()
    return result.task
}
// guide:end bolts-8

/// Runs the BoltsStyle version of each scenario for the tour and the tests.
enum BoltsTour {
    static func run(_ scenario: Int, _ store: BoltsStore, ui: UITarget) async throws -> String {
        let story = store.backend.story  // what happens in scenarios 7 and 8
        switch scenario {
        case 1:
            return try await showScreen(store).async()
        case 2:
            return try await visitTwice(store).async().description
        case 3:
            let task = deleteOneByOne(["a", "b"], store).continueOnSuccessWithTask { _ in
                store.note("serial deletes done; now the parallel ones")
                return deleteAllAtOnce(["c", "d"], store)
            }
            try await task.async()
            return "left: \(store.backend.remainingItems.sorted())"
        case 4:
            switch ui {
            case .main: return try await showReport(store).async()
            case .standIn(let queue, _): return try await showReport(store, ui: .queue(queue)).async()
            }
        case 5:
            let cancellation = BFCancellationTokenSource()
            store.backend.cancelButton(tappedAfter: "→ fetch images").connect(cancellation.cancel)
            return try await openArticle(store, cancellation: cancellation).async()
        case 6:
            return try await loadWithFallback(store).async()
        case 7:
            let cancellation = BFCancellationTokenSource()
            store.backend.cancelButton(tappedAfter: story.cancelUploadsAfter).connect(cancellation.cancel)
            let line = uploadAll(story.files, atMost: story.uploadsAtOnce, store, cancellation: cancellation)
            return story.summary(uploaded: try await line.async())
        default:
            let cancellation = BFCancellationTokenSource()
            store.backend.cancelButton(tappedAfter: story.cancelPollingAfter).connect(cancellation.cancel)
            return try await pollUntilDone(
                story.job, every: story.pollInterval, giveUpAfter: story.pollLimit, store, cancellation: cancellation
            ).async()
        }
    }
}
