// The six scenarios of docs/guide.md in FBLStyle. The regions between `guide:begin` and `guide:end` are copied
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
    let noteRetry = { (_: Int, error: any Error) -> Bool in
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

/// Runs the FBLStyle version of each scenario for the tour and the tests.
enum FBLTour {
    static func run(_ scenario: Int, _ store: FBLStore, ui: UITarget) async throws -> String {
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
            store.backend.whenStarted("fetch images") {
                store.note("user taps Cancel")
                cancellation.reject(CancellationError())
            }
            return try await openArticle(store, cancellation: cancellation).async()
        default:
            return try await loadWithFallback(store).async()
        }
    }
}
