// The eight scenarios of docs/guide.md in PromiseKitStyle. The regions between `guide:begin` and `guide:end` are copied
// verbatim into the guide (GuideTests checks that they match); `PromiseKitTour.run` is how the tour and the tests run
// them. Every step names its queue with `on:`: PromiseKit's default, `conf.Q`, is the main queue.

import Dispatch
import PromiseKitStyle

// MARK: 1. Two fetches, then one step that needs both

// guide:begin pmk-1
func showScreen(_ store: PromiseKitStore) -> Promise<String> {
    let data1 = store.fetch("data1")  // both requests start now
    let data2 = store.fetch("data2")
    return when(fulfilled: data1, data2).map(on: store.background) { first, second in
        store.note("push screen with \(first) and \(second)")
        return "screen(\(first), \(second))"
    }
}
// guide:end pmk-1

// MARK: 2. A chain of asynchronous steps

// guide:begin pmk-2
func visitTwice(_ store: PromiseKitStore) -> Promise<Record> {
    firstly {
        store.query("ada")
    }.map(on: store.background) { record in
        store.note("modify \(record)")
        return record.visited()
    }.then(on: store.background) { record in
        store.save(record)
    }.then(on: store.background) { _ in
        store.query("ada")
    }.map(on: store.background) { record in
        store.note("modify \(record)")
        return record.visited()
    }.then(on: store.background) { record in
        store.save(record)
    }
}
// guide:end pmk-2

// MARK: 3. Serial and parallel deletes

// guide:begin pmk-3
func deleteOneByOne(_ items: [String], _ store: PromiseKitStore) -> Promise<Void> {
    items.reduce(Promise()) { previous, item in
        previous.then(on: nil) { store.delete(item) }  // on: nil runs inline, on the thread that resolved
    }
}

func deleteAllAtOnce(_ items: [String], _ store: PromiseKitStore) -> Promise<Void> {
    when(fulfilled: items.map { store.delete($0) })
}
// guide:end pmk-3

// MARK: 4. Choosing where each step runs

// guide:begin pmk-4
func showReport(_ store: PromiseKitStore, ui: DispatchQueue = .main) -> Promise<String> {
    store.fetch("report").map(on: store.background) { raw in
        store.note("parse \(raw)")  // heavy work: off the UI
        return raw.uppercased()
    }.get(on: ui) { text in
        store.note("show \(text)")  // UI work: on the main queue (conf.Q's default)
    }
}
// guide:end pmk-4

// MARK: 5. Cancelling work in flight

// guide:begin pmk-5
func openArticle(_ store: PromiseKitStore, cancellation: CancelFlag) -> Promise<String> {
    store.fetch("article").then(on: store.background) { article -> Promise<String> in
        store.note("got \(article); load its images")
        return store.fetch("images")  // runs to its end: nothing can abort it
    }.map(on: store.background) { images in
        guard !cancellation.isCancelled else { throw PMKError.cancelled }  // `catch` skips this error
        store.note("render \(images)")
        return images
    }
}
// guide:end pmk-5

// MARK: 6. Errors: retrying, timing out, recovering

// guide:begin pmk-6
func fetchWithRetry(_ name: String, attempts: Int, _ store: PromiseKitStore) -> Promise<String> {
    store.fetch(name).recover(on: store.background) { error -> Promise<String> in
        guard attempts > 1 else { throw error }
        store.note("retry after \(error)")
        return after(seconds: 0.01).then(on: nil) { fetchWithRetry(name, attempts: attempts - 1, store) }
    }
}

func fetchWithTimeout(_ name: String, seconds: Double, _ store: PromiseKitStore) -> Promise<String> {
    let timeout = after(seconds: seconds).map(on: nil) { () throws -> String in throw StoreError.timedOut(name) }
    return race(store.fetch(name), timeout)  // the first of the two to resolve wins
}

func loadWithFallback(_ store: PromiseKitStore) -> Promise<String> {
    fetchWithRetry("flaky", attempts: 3, store).then(on: store.background) { _ in
        fetchWithTimeout("slow", seconds: 0.05, store)
    }.recover(on: store.background) { error -> Promise<String> in
        store.note("recover from \(error)")
        return .value("cached-data")
    }
}
// guide:end pmk-6

// MARK: 7. A work line: at most three uploads at a time, with progress and Cancel

// guide:begin pmk-7
func uploadAll(
    _ files: [String], atMost limit: Int, _ store: PromiseKitStore, cancellation: CancelFlag
) -> Promise<Int> {
    let done = Locked(0)  // the count, behind a lock the compiler can see
    var left = files.makeIterator()
    let uploads = AnyIterator { () -> Promise<Void>? in  // `when` pulls the next upload as a place frees up
        guard !cancellation.isCancelled, let file = left.next() else { return nil }  // nil: start no more
        return store.upload(file).map(on: store.background) {
            let done = done.withLock { done in
                done += 1
                return done
            }
            store.note("progress \(done)/\(files.count)")
        }
    }
    return when(fulfilled: uploads, concurrently: limit).map(on: store.background) { _ in done.get() }
}
// guide:end pmk-7

// MARK: 8. Polling on a schedule

// guide:begin pmk-8
func pollUntilDone(
    _ job: String, every interval: Double, giveUpAfter limit: Double, _ store: PromiseKitStore
) -> (result: Promise<String>, cancel: () -> Void) {
    let (result, seal) = Promise<String>.pending()
    let finished = Locked(false)  // behind a lock the compiler can see
    @Sendable func finish(_ outcome: Result<String>) {
        let first = finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
        if first { seal.resolve(outcome) }
    }
    @Sendable func poll() {
        guard !finished.get() else { return }  // done, given up or cancelled: no more polls
        store.status(job).done(on: store.background) { status in
            guard status != "done" else { return finish(.fulfilled(status)) }
            store.note("next poll in \(interval) s")
            after(seconds: interval).done(on: store.background) { poll() }  // every poll starts on a fresh stack
        }.catch(on: store.background) { finish(.rejected($0)) }
    }
    poll()
    after(seconds: limit).done(on: store.background) { finish(.rejected(StoreError.timedOut(job))) }
    let cancel = { () -> Void in  // a disposable: ends the result at once; a wait under way finds nothing to do
        Guarantee.value(()).done(on: store.background) { finish(.rejected(PMKError.cancelled)) }
    }
    return (result, cancel)
}
// guide:end pmk-8

/// Runs the PromiseKitStyle version of each scenario for the tour and the tests.
enum PromiseKitTour {
    static func run(_ scenario: Int, _ store: PromiseKitStore, ui: UITarget) async throws -> String {
        let story = store.backend.story  // what happens in scenarios 7 and 8
        switch scenario {
        case 1:
            return try await showScreen(store).async()
        case 2:
            return try await visitTwice(store).async().description
        case 3:
            let promise = deleteOneByOne(["a", "b"], store).then(on: nil) { () -> Promise<Void> in
                store.note("serial deletes done; now the parallel ones")
                return deleteAllAtOnce(["c", "d"], store)
            }
            try await promise.async()
            return "left: \(store.backend.remainingItems.sorted())"
        case 4:
            switch ui {
            case .main: return try await showReport(store).async()
            case .standIn(let queue, _): return try await showReport(store, ui: queue).async()
            }
        case 5:
            let cancellation = store.backend.cancelFlag(tappedAfter: "→ fetch images")
            return try await openArticle(store, cancellation: cancellation).async()
        case 6:
            return try await loadWithFallback(store).async()
        case 7:
            let cancellation = store.backend.cancelFlag(tappedAfter: story.cancelUploadsAfter)
            let line = uploadAll(story.files, atMost: story.uploadsAtOnce, store, cancellation: cancellation)
            return story.summary(uploaded: try await line.async())
        default:
            let button = store.backend.cancelButton(tappedAfter: story.cancelPollingAfter)
            let polling = pollUntilDone(story.job, every: story.pollInterval, giveUpAfter: story.pollLimit, store)
            button.connect(polling.cancel)
            return try await polling.result.async()
        }
    }
}
