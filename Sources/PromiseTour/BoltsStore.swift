// The simulated server seen through BoltsStyle: every call returns a `BFTask`, completed through a
// `BFTaskCompletionSource` from the server's callback. A cancellation token aborts the request itself.

import BoltsStyle
import Dispatch

/// The simulated server, BoltsStyle.
struct BoltsStore {
    let backend: Backend

    /// Work that should stay off the UI.
    var background: DispatchQueue { backend.background }

    /// Writes a step of the scenario to the timeline.
    func note(_ step: String) { backend.note(step) }

    // guide:begin bolts-wrap
    func fetch(_ name: String, cancellationToken: BFCancellationToken? = nil) -> BFTask<String> {
        let source = BFTaskCompletionSource<String>()
        let request = backend.fetch(name) { result in
            switch result {
            case .success(let data): source.trySet(result: data)
            case .failure(is CancellationError): source.tryCancel()
            case .failure(let error): source.trySet(error: error)
            }
        }
        cancellationToken?.register { request.cancel() }  // Bolts can abort the request itself
        return source.task
    }
    // guide:end bolts-wrap

    func query(_ id: String) -> BFTask<Record> {
        let source = BFTaskCompletionSource<Record>()
        backend.query(id) { source.settle($0) }
        return source.task
    }

    func save(_ record: Record) -> BFTask<Record> {
        let source = BFTaskCompletionSource<Record>()
        backend.save(record) { source.settle($0) }
        return source.task
    }

    func delete(_ item: String) -> BFTask<Void> {
        let source = BFTaskCompletionSource<Void>()
        backend.delete(item) { source.settle($0) }
        return source.task
    }

    func upload(_ file: String, cancellationToken: BFCancellationToken) -> BFTask<Void> {
        let source = BFTaskCompletionSource<Void>()
        let request = backend.upload(file) { source.settle($0) }
        cancellationToken.register { request.cancel() }
        return source.task
    }

    func status(_ job: String) -> BFTask<String> {
        let source = BFTaskCompletionSource<String>()
        backend.status(job) { source.settle($0) }
        return source.task
    }
}

extension BFTaskCompletionSource {
    /// Completes the task with `result`: succeeded, faulted, or cancelled for `CancellationError`.
    func settle(_ result: Result<TResult, any Error>) {
        switch result {
        case .success(let value): trySet(result: value)
        case .failure(is CancellationError): tryCancel()
        case .failure(let error): trySet(error: error)
        }
    }
}
