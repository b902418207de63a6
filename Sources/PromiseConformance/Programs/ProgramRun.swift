// ProgramRun.swift: the deterministic driver that runs a program on an adapter and records what happened.
//
// The driver performs the steps one at a time on its own thread. Around each step the program's two serial queues
// are held (suspended), so no handler on them can run while the step's call is in progress; then they are released
// and the driver waits until the step's work is done: every promise the model says has settled by now has been seen
// to settle, every handler it says has run has run, every `all` it says has completed has, and two passes over the
// queues (the program's, and Dispatch's global queue, where most implementations run handlers that have no queue)
// found nothing new. The wait ends when the work is done, not after a time: only an implementation that never does
// what the model requires reaches the stall limit, and then the check reports what is missing.
//
// Every promise the program makes gets one observer first: a `then` with no queue that records how, and during which
// step, the promise settled. Every handler records its input, the step, and whether it ran inside a call the program
// was making into the implementation (A+ 2.2.4), on the same thread.
import Dispatch
import Foundation

/// One run of a program on an implementation: what happened, as the checker reads it.
final class ProgramRun: @unchecked Sendable {
    /// The stall limit of a run's later waits once one wait stalled: the run already departs from the model (or the
    /// machine was too busy, which the confirming run of `ProgramTrial` settles).
    static let stallLimitAfterAStall: TimeInterval = 0.1

    /// The most events one run records: a program of the default run records a few hundred at most, so a run that
    /// reaches this has a promise that keeps settling or calling (a handler that settles its own promise again, and
    /// is called again). The run then stops: it records nothing more, the program's handlers do nothing more than
    /// return, its remaining steps are not performed, and the check reports the counts it reached.
    static let eventLimit = 10_000

    typealias State = PromisesAPlus.State

    /// Where a registration or a settlement call was made from: the driver, a handler on serial queue `qK`, or one
    /// handler on the implementation's default scheduling.
    enum Context: Hashable, Sendable {
        case driver
        case queue(Int)
        case handler(Int)
    }

    /// One call of a handler.
    struct HandlerCall: Sendable {
        var fulfilled: Bool
        var input: State
        var step: Int
        var sequence: Int
        var insideCall: Bool
    }

    /// One `then` call of the program, in order.
    struct Registration: Sendable {
        var step: Int
        var sequence: Int
        var context: Context

        /// Whether this registration certainly came before `other`: in an earlier step, or in the same step from the
        /// driver (whose call comes before the step's handlers run) or from the same serial context, earlier.
        func precedes(_ other: Registration) -> Bool {
            if step != other.step { return step < other.step }
            if context == .driver && other.context != .driver { return true }
            return context == other.context && sequence < other.sequence
        }
    }

    private struct Settlers {
        var fulfil: @Sendable (Sentinel) -> Void
        var reject: (@Sendable (any Error) -> Void)?
        var cancel: (@Sendable () -> Void)?
    }

    let adapter: ErasedAdapter
    let program: Program
    /// The serial queues `q1` and `q2`.
    private let queues = [1, 2].map { DispatchQueue(label: "PromiseConformance.program.q\($0)") }
    private let log = Locked(RunLog())
    private let promises = Locked<[Int: ErasedPromise]>([:])
    private let settlers = Locked<[Int: Settlers]>([:])
    private let lifetimes = Locked<[Int: WeakBox]>([:])
    /// How many calls into the implementation each thread is inside.
    private let calls = Locked<[ObjectIdentifier: Int]>([:])
    /// How many of the program's handlers are running now. A run is quiet only when none is: a handler that has
    /// recorded its call may still be descheduled before it looks up the promise it adopts, and letting go of the
    /// promises then would make it fail on a busy machine.
    private let handlersRunning = Locked(0)

    init(_ program: Program, on adapter: ErasedAdapter) {
        self.program = program
        self.adapter = adapter
    }

    /// Runs the program, lets go of it, and returns what happened. `stallLimit` bounds a wait in which nothing
    /// happens while the model still expects something, `releaseLimit` the wait for what was let go of to be freed;
    /// `deadline` bounds the whole run.
    func run(
        _ prediction: PromisesAPlus.Prediction, stallLimit: TimeInterval, releaseLimit: TimeInterval,
        deadline: DispatchTime
    ) -> RunLog {
        var stall = stallLimit
        for (index, step) in program.steps.enumerated() {
            guard !isStopped else { break }
            log.withLock { $0.step = index }
            for queue in queues { queue.suspend() }
            perform(step, from: .driver)
            for queue in queues { queue.resume() }
            if !waitForQuiet(
                index < prediction.steps.count ? prediction.steps[index] : .init(), prediction, stall, deadline)
            {
                // The run already departs from the model (or the machine is very busy): later waits get less time.
                // A failure is confirmed by a second run with a longer limit (ProgramTrial), so that a busy machine
                // does not fail a program.
                log.withLock { $0.stalled = true }
                stall = min(stall, Self.stallLimitAfterAStall)
            }
        }
        log.withLock { $0.step = program.steps.count }
        guard !isStopped else { return log.withLock { $0 } }  // what it made may still be busy: not waited for
        release(
            PromisesAPlus.mustBeReleased(program, facts: log.withLock { $0.facts }), min(stall, releaseLimit), deadline)
        return log.withLock { $0 }
    }

    // MARK: Performing steps

    /// Performs one step, from the driver or from inside a handler.
    private func perform(_ step: Program.Step, from context: Context) {
        switch step {
        case .make(let node, let make):
            makePromise(node, make, from: context)
        case .fulfil(let node, let value):
            guard let settler = settlers.withLock({ $0[node] }) else { return }
            record { $0.settleCalls[node, default: []].append(.fulfil(value)) }
            inCall { settler.fulfil(Sentinel(value)) }
        case .reject(let node, let error):
            guard let reject = settlers.withLock({ $0[node]?.reject }) else { return }
            record { $0.settleCalls[node, default: []].append(.reject(error)) }
            inCall { reject(SentinelError(error)) }
        case .cancel(let node):
            guard let cancel = settlers.withLock({ $0[node]?.cancel }) else { return }
            record { $0.settleCalls[node, default: []].append(.cancel) }
            inCall { cancel() }
        }
    }

    private func makePromise(_ node: Int, _ make: Program.Make, from context: Context) {
        func lookUp(_ nodes: [Int]) -> [ErasedPromise]? {
            let found = promises.withLock { table in nodes.compactMap { table[$0] } }
            return found.count == nodes.count ? found : nil
        }
        let promise: ErasedPromise
        switch make {
        case .pending:
            let pending = inCall { adapter.pending() }
            settlers.withLock { $0[node] = Settlers(fulfil: pending.fulfill, reject: pending.reject) }
            promise = pending.promise
        case .cancellable:
            let cancellable = inCall { adapter.cancellablePending() }
            settlers.withLock { $0[node] = Settlers(fulfil: cancellable.fulfill, cancel: cancellable.cancel) }
            promise = cancellable.promise
        case .fulfilled(let value):
            promise = inCall { adapter.fulfilled(Sentinel(value)) }
        case .rejected(let error):
            promise = inCall { adapter.rejected(SentinelError(error)) }
        case .thenable(let spec):
            promise = inCall { adapter.assimilated(GeneratedThenable(spec)) }
        case .then(let source, let queue, let onFulfilled, let onRejected):
            guard let source = lookUp([source])?.first else { return }
            let fulfilledHandler = onFulfilled.map { reaction in
                { @Sendable [weak self] (value: Sentinel) -> HandlerResult<ErasedPromise> in
                    self?.handle(node, fulfilled: true, input: .fulfilled(value.id), reaction, queue) ?? .fulfill(value)
                }
            }
            let rejectedHandler = onRejected.map { reaction in
                { @Sendable [weak self] (error: any Error) -> HandlerResult<ErasedPromise> in
                    guard let self else { return .reject(error) }
                    return handle(node, fulfilled: false, input: .rejected(reason(error)), reaction, queue)
                }
            }
            record { log in
                log.registrations[node] = Registration(step: log.step, sequence: log.sequence, context: context)
            }
            promise = inCall {
                adapter.then(source, queue.map { queues[($0 - 1) % queues.count] }, fulfilledHandler, rejectedHandler)
            }
        case .all(let inputs):
            guard let inputs = lookUp(inputs) else { return }
            record { log in
                log.made.insert(node)
                log.madeAt[node] = log.step
            }
            inCall {
                adapter.all(inputs) { [weak self] result in
                    guard let self else { return }
                    let seen: PromisesAPlus.AllResult =
                        switch result {
                        case .success(let values): .values(values.map(\.id))
                        case .failure(let error): .failure(reason(error))
                        }
                    record { $0.completions[node, default: []].append(seen) }
                }
            }
            return
        case .race(let inputs):
            guard let inputs = lookUp(inputs) else { return }
            promise = inCall { adapter.race(inputs) }
        case .any(let inputs):
            guard let inputs = lookUp(inputs) else { return }
            promise = inCall { adapter.any(inputs) }
        }
        promises.withLock { $0[node] = promise }
        lifetimes.withLock { $0[node] = WeakBox(adapter.lifetimeObject(promise)) }
        record { log in
            log.made.insert(node)
            log.madeAt[node] = log.step
        }
        observe(node, promise)
    }

    /// Registers the observer of promise `node`: a `then` with no queue that records how the promise settled.
    private func observe(_ node: Int, _ promise: ErasedPromise) {
        _ = inCall {
            adapter.then(
                promise, nil,
                { [weak self] value in
                    self?.observed(node, .fulfilled(value.id))
                    return .fulfill(value)
                },
                { [weak self] error in
                    guard let self else { return .reject(error) }
                    observed(node, .rejected(reason(error)))
                    return .reject(error)
                })
        }
    }

    private func observed(_ node: Int, _ state: State) {
        let inside = isInsideCall
        record { log in log.observed[node, default: []].append((state, log.step, inside)) }
    }

    /// A handler of the program: records its call, runs its effects, and returns what the reaction says.
    private func handle(
        _ node: Int, fulfilled: Bool, input: State, _ reaction: Program.Reaction, _ queue: Int?
    ) -> HandlerResult<ErasedPromise> {
        handlersRunning.withLock { $0 += 1 }
        defer { handlersRunning.withLock { $0 -= 1 } }
        let inside = isInsideCall
        record { log in
            log.handlerCalls[node, default: []].append(
                HandlerCall(
                    fulfilled: fulfilled, input: input, step: log.step, sequence: log.sequence, insideCall: inside))
        }
        let context: Context = queue.map { .queue($0) } ?? .handler(node)
        for effect in reaction.effects where !isStopped { perform(effect, from: context) }
        switch reaction.result {
        case .value(let value): return .fulfill(Sentinel(value))
        case .throwing(let error): return .reject(SentinelError(error))
        case .adopt(let other):
            guard let promise = promises.withLock({ $0[other] }) else { return .reject(MissingPromise(node: other)) }
            return .adopt(promise)
        case .adoptSelf:
            // Only missing when the handler runs inside the `then` call that makes the promise (A+ 2.2.4).
            guard let promise = promises.withLock({ $0[node] }) else { return .reject(MissingPromise(node: node)) }
            return .adopt(promise)
        case .thenable(let spec): return .assimilate(GeneratedThenable(spec))
        }
    }

    /// The model's name for a reason the implementation gave.
    private func reason(_ error: any Error) -> PromisesAPlus.Reason {
        if let sentinel = error as? SentinelError { return .error(sentinel.id) }
        if adapter.isCancellation(error) { return .cancelled }
        return .other(String(describing: error))
    }

    // MARK: Calls and events

    /// Records one event, unless the run has reached ``eventLimit`` (then it is stopped).
    private func record(_ change: (inout RunLog) -> Void) {
        log.withLock { log in
            guard log.events < Self.eventLimit else {
                log.stopped = true
                return
            }
            change(&log)
            log.sequence += 1
            log.events += 1
        }
    }

    /// Whether the run was stopped at ``eventLimit``.
    private var isStopped: Bool { log.withLock { $0.stopped } }

    /// Runs a call into the implementation, counted as such on this thread.
    private func inCall<T>(_ body: () -> T) -> T {
        let thread = ObjectIdentifier(Thread.current)
        calls.withLock { $0[thread, default: 0] += 1 }
        defer { calls.withLock { $0[thread, default: 1] -= 1 } }
        return body()
    }

    private var isInsideCall: Bool {
        let thread = ObjectIdentifier(Thread.current)
        return calls.withLock { ($0[thread] ?? 0) > 0 }
    }

    // MARK: Waiting

    /// Waits until `milestones` are met, no handler is running, and two passes over the queues find nothing new; false
    /// if nothing happened for `stallLimit` while a milestone was still missing (or a handler still ran), or at
    /// `deadline`.
    private func waitForQuiet(
        _ milestones: PromisesAPlus.Milestones, _ prediction: PromisesAPlus.Prediction, _ stallLimit: TimeInterval,
        _ deadline: DispatchTime
    ) -> Bool {
        var quietPasses = 0
        var pause: UInt32 = 20
        var lastChange = DispatchTime.now()
        while DispatchTime.now() < deadline, !isStopped {
            let before = log.withLock { $0.events }
            flushQueues(until: deadline)
            if log.withLock({ $0.events }) != before {
                quietPasses = 0
                lastChange = .now()
                continue
            }
            if met(milestones, prediction), handlersRunning.withLock({ $0 }) == 0 {
                quietPasses += 1
                if quietPasses == 2 { return true }
                continue
            }
            quietPasses = 0
            if DispatchTime.now().uptimeNanoseconds - lastChange.uptimeNanoseconds > UInt64(stallLimit * 1e9) {
                return false
            }
            usleep(pause)  // waiting on a thread that is none of the queues (a timer, an event loop, a task)
            pause = min(pause * 2, 2_000)
        }
        return false
    }

    private func met(_ milestones: PromisesAPlus.Milestones, _ prediction: PromisesAPlus.Prediction) -> Bool {
        log.withLock { log in
            milestones.settled.allSatisfy {
                prediction.unsure.contains($0) || !log.made.contains($0) || !(log.observed[$0] ?? []).isEmpty
            }
                && milestones.handlersRun.allSatisfy {
                    prediction.unsure.contains($0) || !log.made.contains($0) || !(log.handlerCalls[$0] ?? []).isEmpty
                }
                && milestones.allsCompleted.allSatisfy {
                    prediction.unsure.contains($0) || !log.made.contains($0) || !(log.completions[$0] ?? []).isEmpty
                }
        }
    }

    /// Runs one block on each of the program's queues, on Dispatch's global queue and on the implementation's own
    /// default queue if it has one (``PromiseAdapter/defaultQueue``): whatever was queued there before has then at
    /// least started.
    private func flushQueues(until deadline: DispatchTime) {
        let flushed = DispatchGroup()
        for queue in queues + [.global()] + [adapter.defaultQueue].compactMap({ $0 }) {
            queue.async(group: flushed) {}
        }
        _ = flushed.wait(timeout: deadline)
    }

    // MARK: Letting go

    /// Lets go of every promise and settle function, then waits until each of `expected` is freed; records those
    /// that are not.
    private func release(_ expected: Set<Int>, _ stallLimit: TimeInterval, _ deadline: DispatchTime) {
        let boxes = lifetimes.withLock { table in table.filter { expected.contains($0.key) } }
        promises.withLock { $0 = [:] }
        settlers.withLock { $0 = [:] }
        lifetimes.withLock { $0 = [:] }
        let start = DispatchTime.now()
        var pause: UInt32 = 20
        var alive = boxes.filter { $0.value.isAlive }.map(\.key)
        while !alive.isEmpty, DispatchTime.now() < deadline,
            DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds < UInt64(stallLimit * 1e9)
        {
            flushQueues(until: deadline)
            usleep(pause)
            pause = min(pause * 2, 2_000)
            alive = boxes.filter { $0.value.isAlive }.map(\.key)
        }
        log.withLock { $0.leaked = alive.sorted() }
    }
}

/// What a handler's `adopt pN` returns when promise `N` was never made (its maker never ran).
struct MissingPromise: Error, CustomStringConvertible {
    let node: Int
    var description: String { "p\(node) was never made" }
}
