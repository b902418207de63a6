// The simulated server seen through PromiseKitStyle: every call returns a `Promise`, settled through its `Resolver`
// from the server's callback. PromiseKit has no cancellation tokens: a request, once started, runs to its end.

import Dispatch
import PromiseKitStyle

/// The simulated server, PromiseKitStyle.
struct PromiseKitStore {
    let backend: Backend

    /// Work that should stay off the UI.
    var background: DispatchQueue { backend.background }

    /// Writes a step of the scenario to the timeline.
    func note(_ step: String) { backend.note(step) }

    // guide:begin pmk-wrap
    func fetch(_ name: String) -> Promise<String> {
        Promise { seal in
            backend.fetch(name) { seal.resolve($0) }
        }
    }
    // guide:end pmk-wrap

    func query(_ id: String) -> Promise<Record> {
        Promise { seal in backend.query(id) { seal.resolve($0) } }
    }

    func save(_ record: Record) -> Promise<Record> {
        Promise { seal in backend.save(record) { seal.resolve($0) } }
    }

    func delete(_ item: String) -> Promise<Void> {
        Promise { seal in backend.delete(item) { seal.resolve($0) } }
    }

    func upload(_ file: String) -> Promise<Void> {
        Promise { seal in backend.upload(file) { seal.resolve($0) } }
    }

    func status(_ job: String) -> Promise<String> {
        Promise { seal in backend.status(job) { seal.resolve($0) } }
    }
}
