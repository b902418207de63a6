// The simulated server seen through FBLStyle: every call returns a pending `Promise` that the server's callback
// fulfills or rejects. Google Promises has no cancellation: whoever holds a pending promise may reject it early, and
// the late answer is then ignored (the first resolution wins).

import Dispatch
import FBLStyle

/// The simulated server, FBLStyle.
struct FBLStore {
    let backend: Backend

    /// Work that should stay off the UI.
    var background: DispatchQueue { backend.background }

    /// Writes a step of the scenario to the timeline.
    func note(_ step: String) { backend.note(step) }

    // guide:begin fbl-wrap
    func fetch(_ name: String) -> Promise<String> {
        let promise = Promise<String>.pending()
        backend.fetch(name) { result in
            switch result {
            case .success(let data): promise.fulfill(data)
            case .failure(let error): promise.reject(error)
            }
        }
        return promise
    }
    // guide:end fbl-wrap

    func query(_ id: String) -> Promise<Record> {
        settled { backend.query(id, completion: $0) }
    }

    func save(_ record: Record) -> Promise<Record> {
        settled { backend.save(record, completion: $0) }
    }

    func delete(_ item: String) -> Promise<Void> {
        settled { backend.delete(item, completion: $0) }
    }

    func upload(_ file: String) -> Promise<Void> {
        settled { backend.upload(file, completion: $0) }
    }

    func status(_ job: String) -> Promise<String> {
        settled { backend.status(job, completion: $0) }
    }

    private func settled<T>(_ start: (@escaping (Result<T, any Error>) -> Void) -> Void) -> Promise<T> {
        let promise = Promise<T>.pending()
        start { result in
            switch result {
            case .success(let value): promise.fulfill(value)
            case .failure(let error): promise.reject(error)
            }
        }
        return promise
    }
}
