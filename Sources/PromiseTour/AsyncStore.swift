// The simulated server seen through Swift concurrency: every call is an `async throws` function. Cancelling the
// awaiting task aborts the request (`withTaskCancellationHandler`), as URLSession's async API does.

import Dispatch
import Foundation

/// The simulated server, async/await.
struct AsyncStore {
    let backend: Backend

    /// Writes a step of the scenario to the timeline.
    func note(_ step: String) { backend.note(step) }

    // guide:begin async-wrap
    func fetch(_ name: String) async throws -> String {
        try await perform { backend.fetch(name, completion: $0) }
    }

    private func perform<T: Sendable>(
        _ start: (@escaping (Result<T, any Error>) -> Void) -> Request
    ) async throws -> T {
        try Task.checkCancellation()  // a cancelled task starts no request
        let request = Locked<Request?>(nil)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let started = start { continuation.resume(with: $0) }
                request.set(started)
                if Task.isCancelled { started.cancel() }  // cancelled before the request existed
            }
        } onCancel: {
            request.get()?.cancel()
        }
    }
    // guide:end async-wrap

    func query(_ id: String) async throws -> Record {
        try await perform { backend.query(id, completion: $0) }
    }

    func save(_ record: Record) async throws -> Record {
        try await perform { backend.save(record, completion: $0) }
    }

    func delete(_ item: String) async throws {
        try await perform { backend.delete(item, completion: $0) }
    }

    func upload(_ file: String) async throws {
        try await perform { backend.upload(file, completion: $0) }
    }

    func status(_ job: String) async throws -> String {
        try await perform { backend.status(job, completion: $0) }
    }
}

/// A value behind a lock, shared between a task and its cancellation handler, or between the handlers of a chain.
final class Locked<Value>: @unchecked Sendable {
    fileprivate let lock = NSLock()
    fileprivate var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }

    func set(_ newValue: Value) { lock.withLock { value = newValue } }

    /// Runs `body` on the value under the lock and returns what it returns.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&value) } }
}

extension Locked {
    /// Returns the value and leaves `nil` in its place.
    func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
