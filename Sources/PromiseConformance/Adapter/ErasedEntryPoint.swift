import Dispatch

/// An adapter's ``EntryPoint`` with its promise type erased, as the clauses route calls through it.
struct ErasedEntryPoint: Sendable {
    let name: String
    let handlers: HandlerKinds
    let results: ResultKinds
    let takesQueue: Bool
    let then:
        @Sendable (
            ErasedPromise, DispatchQueue?, ErasedAdapter.FulfilledHandler?, ErasedAdapter.RejectedHandler?
        ) -> ErasedPromise

    init(
        name: String, handlers: HandlerKinds, results: ResultKinds,
        takesQueue: Bool,
        then:
            @escaping @Sendable (
                ErasedPromise, DispatchQueue?, ErasedAdapter.FulfilledHandler?, ErasedAdapter.RejectedHandler?
            ) -> ErasedPromise
    ) {
        self.name = name
        self.handlers = handlers
        self.results = results
        self.takesQueue = takesQueue
        self.then = then
    }

    /// Whether a call that gives `handlers`, whose handlers return `results` (and pass on the outcome they got
    /// unchanged, when `same`), with a queue or not, fits this entry point (see ``EntryPoint``).
    func fits(_ handlers: HandlerKinds, _ results: ResultKinds, same: Bool, queue: Bool) -> Bool {
        !handlers.isEmpty && self.handlers.isSuperset(of: handlers)
            && (self.results.isSuperset(of: results) || (same && self.results.contains(.same))) && queue == takesQueue
    }
}
