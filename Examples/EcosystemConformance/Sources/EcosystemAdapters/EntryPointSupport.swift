// What the entry-point variants of the seven adapters share (`<Library>EntryPoints.swift`).
//
// An entry point is one call a library's users chain with (Hydra's one-step `then`, Deferred's `map`, BrightFutures'
// `recoverWith`, ...), written with the signature of the adapter's `then` so that the suite can route clauses
// through it as well as through the adapter's own `then`, which often chains through another call (a two-step
// `then`, `andThen` over a `Result`). Each variant's doc comment says what its declaration states: the handlers it
// takes, the handler results it can express (value, throw, adopt, assimilate) and whether it takes a queue. A variant
// handed a handler or a result outside its declaration stops the process with a message that names it: the suite
// reads the declaration and never does that, so the message points at a declaration that does not match the code.

/// Stops the process: the suite handed `entryPoint` `what` (a handler or a handler result) that its declaration
/// says it cannot take.
func entryPointRefuses(_ entryPoint: String, _ what: String) -> Never {
    preconditionFailure("the entry point \(entryPoint) cannot take \(what): its declaration does not list it")
}
