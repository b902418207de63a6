// The eight scenarios of docs/guide.md in FBLStyle. The regions between `guide:begin` and `guide:end` are copied
// verbatim into the guide (GuideTests checks that they match); `FBLTour.run` is how the tour and the tests run them.
// Every block names its queue with `on:`: Google Promises' default, `DispatchQueue.promises`, is the main queue.

import Dispatch
import FBLStyle

// MARK: 1. Two fetches, then one step that needs both

// guide:begin fbl-1
func showScreen(_ store: FBLStore) -> Promise<String> {
    let data1 = store.fetch("data1")  // both requests start now
    let data2 = store.fetch("data2")
    return all(on: store.background, data1, data2).then(on: store.background) { first, second in
        store.note("push screen with \(first) and \(second)")
        return "screen(\(first), \(second))"
    }
}
// guide:end fbl-1

// MARK: 2. A chain of asynchronous steps

// guide:begin fbl-2
func visitTwice(_ store: FBLStore) -> Promise<Record> {
    store.query("ada").then(on: store.background) { record -> Record in
        store.note("modify \(record)")
        return record.visited()
    }.then(on: store.background) { record in
        store.save(record)
    }.then(on: store.background) { _ in
        store.query("ada")
    }.then(on: store.background) { record -> Record in
        store.note("modify \(record)")
        return record.visited()
    }.then(on: store.background) { record in
        store.save(record)
    }
}
// guide:end fbl-2

// MARK: 3. Serial and parallel deletes

// guide:begin fbl-3
func deleteOneByOne(_ items: [String], _ store: FBLStore) -> Promise<Void> {
    Promise(()).reduce(on: store.background, items) { _, item in
        store.delete(item)
    }
}

func deleteAllAtOnce(_ items: [String], _ store: FBLStore) -> Promise<Void> {
    all(on: store.background, items.map { store.delete($0) }).then(on: store.background) { _ in }
}
// guide:end fbl-3

// MARK: 4. Choosing where each step runs

// guide:begin fbl-4
func showReport(_ store: FBLStore, ui: DispatchQueue = .main) -> Promise<String> {
    store.fetch("report").then(on: store.background) { raw -> String in
        store.note("parse \(raw)")  // heavy work: off the UI
        return raw.uppercased()
    }.then(on: ui) { text in
        store.note("show \(text)")  // UI work: on the main queue (DispatchQueue.promises' default)
    }
}
// guide:end fbl-4

// MARK: 5. Cancelling work in flight

// guide:begin fbl-5
func openArticle(_ store: FBLStore, cancellation: Promise<String>) -> Promise<String> {
    store.fetch("article").then(on: store.background) { article -> Promise<String> in
        store.note("got \(article); load its images")
        return race(on: store.background, cancellation, store.fetch("images"))  // reject `cancellation` to stop
    }.then(on: store.background) { images -> String in
        store.note("render \(images)")  // never runs once `cancellation` is rejected
        return images
    }
}
// guide:end fbl-5

// MARK: 6. Errors: retrying, timing out, recovering

// guide:begin fbl-6
func loadWithFallback(_ store: FBLStore) -> Promise<String> {
    let noteRetry = { @Sendable (_: Int, error: any Error) -> Bool in
        store.note("retry after \(error)")
        return true  // false would stop retrying
    }
    return retry(on: store.background, attempts: 2, delay: 0.01, condition: noteRetry) {
        store.fetch("flaky")
    }.then(on: store.background) { _ in
        store.fetch("slow").timeout(on: store.background, 0.05)
    }.recover(on: store.background) { error -> String in
        store.note("recover from \(error)")
        return "cached-data"
    }
}
// guide:end fbl-6

// MARK: 7. A work line: at most three uploads at a time, with progress and Cancel

// guide:begin fbl-7
func uploadAll(_ files: [String], atMost limit: Int, _ store: FBLStore, cancellation: CancelFlag) -> Promise<Int> {
    let count = Locked((next: 0, done: 0))  // the bookkeeping, behind a lock the compiler can see
    @Sendable func uploadNext() -> Promise<Void> {  // one worker: uploads files one by one until none is left
        let file = count.withLock { count -> String? in
            guard count.next < files.count, !cancellation.isCancelled else { return nil }
            count.next += 1
            return files[count.next - 1]
        }
        guard let file else { return Promise(()) }
        return store.upload(file).then(on: store.background) { _ -> Promise<Void> in
            let done = count.withLock { count in
                count.done += 1
                return count.done
            }
            store.note("progress \(done)/\(files.count)")
            return uploadNext()
        }
    }
    return Promise(()).then(on: store.background) { _ in
        all(on: store.background, (0..<limit).map { _ in uploadNext() })  // `limit` workers share the files
    }.then(on: store.background) { _ in count.get().done }
}
// guide:end fbl-7

// MARK: 8. Polling on a schedule

// guide:begin fbl-8
func pollUntilDone(
    _ job: String, every interval: Double, giveUpAfter limit: Double, _ store: FBLStore
) -> Promise<String> {
    let result = Promise<String>.pending()  // reject it to cancel
    let wait = Locked(Promise(()))  // the wait for the next poll, behind a lock the compiler can see
    @Sendable func poll() {
        guard result.isPending else { return }  // done, given up or cancelled: no more polls
        store.status(job).then(on: store.background) { status -> Promise<Void> in
            if status == "done" { result.fulfill(status) }
            guard result.isPending else { return Promise(()) }
            store.note("next poll in \(interval) s")
            let next = Promise(()).delay(on: store.background, interval)
            wait.set(next)
            return next
        }.then(on: store.background) { _ in
            poll()  // every poll starts on a fresh stack, on store.background
        }.catch(on: store.background) { error in
            result.reject(error)  // a failed poll, or a cancelled wait (then this changes nothing)
        }
    }
    Promise(()).then(on: store.background) { _ in poll() }
    result.timeout(on: store.background, limit).catch(on: store.background) { error in
        result.reject(error)  // given up: no more polls (nothing changes if it is already resolved)
        wait.get().reject(error)  // given up or cancelled: the wait ends now, so nothing is left pending
    }
    return result
}
// guide:end fbl-8

/// Runs the FBLStyle version of each scenario for the tour and the tests.
enum FBLTour {
    static func run(_ scenario: Int, _ store: FBLStore, ui: UITarget) async throws -> String {
        let story = store.backend.story  // what happens in scenarios 7 and 8
        switch scenario {
        case 1:
            return try await showScreen(store).async()
        case 2:
            return try await visitTwice(store).async().description
        case 3:
            let promise = deleteOneByOne(["a", "b"], store).then(on: store.background) { _ -> Promise<Void> in
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
            let cancellation = Promise<String>.pending()
            let button = store.backend.cancelButton(tappedAfter: "→ fetch images")
            button.connect { cancellation.reject(CancellationError()) }
            return try await openArticle(store, cancellation: cancellation).async()
        case 6:
            return try await loadWithFallback(store).async()
        case 7:
            let cancellation = store.backend.cancelFlag(tappedAfter: story.cancelUploadsAfter)
            let line = uploadAll(story.files, atMost: story.uploadsAtOnce, store, cancellation: cancellation)
            return story.summary(uploaded: try await line.async())
        default:
            let button = store.backend.cancelButton(tappedAfter: story.cancelPollingAfter)
            let result = pollUntilDone(story.job, every: story.pollInterval, giveUpAfter: story.pollLimit, store)
            button.connect { result.reject(CancellationError()) }  // first resolution wins
            return try await result.async()
        }
    }
}
