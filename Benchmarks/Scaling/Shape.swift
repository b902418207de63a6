// A shape of B8: one kind of work spread over T threads, and the contenders that do it.

/// One contender of a shape: a style, plain GCD or the floor.
struct Contender: Sendable {
    /// The name in the tables and the chart ("BoltsStyle", "GCD", "floor").
    let name: String
    /// Does the shape's work on `threads` threads and returns the nanoseconds of its timed part. Setup that is not
    /// the shape's work (making queues, settling after a registration phase) is outside the time; each contender
    /// checks that its work was done (every handler ran once) and traps otherwise.
    let measure: @Sendable (_ threads: Int) -> UInt64
}

/// One shape of B8.
struct Shape: Sendable {
    /// Its short name, used by `--shape` and in the JSON ("independent", "shared-queue", "contended").
    let id: String
    /// What one run does, for the tables.
    let summary: String
    /// How many operations one run does in all, whatever the thread count: the throughput is this over the time.
    let operations: Int
    /// What an operation is, for the throughput's unit.
    let operation: String
    let contenders: [Contender]
}

/// The three shapes, in the order of the tables.
let shapes = [independentChains, sharedQueue, contendedPromise]

/// The name of the plain GCD contender.
let gcd = "GCD"
/// The name of the floor contender.
let floor = "floor"
