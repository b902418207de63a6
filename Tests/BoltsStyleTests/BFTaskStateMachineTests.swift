// The state machine of BFTask alone: no lock, no thread, no task settled through it. Each test drives the machine
// through transitions and checks the action each returns and the phase it leaves, row by row of the table in
// BFTaskStateMachine.swift's header. Threads are two tokens; a callback says its name when run.
import PromisePlumbing
import Testing

@testable import BoltsStyle

@Suite("BFTask's state machine")
struct BFTaskStateMachineTests {
    typealias Machine = BFTaskStateMachine<Int>

    let threads = Threads()
    let heard = Heard()

    // MARK: pending

    @Test func aNewMachineIsPendingWithoutCallbacks() {
        var machine = Machine()
        #expect(describe(machine.phase) == "pending []")
        #expect(describe(machine.currentState()) == "pending")
    }

    @Test func registeringWhilePendingWaitsInOrder() {
        var machine = Machine()
        #expect(describe(machine.register(callback("a"), on: threads.first)) == "wait")
        #expect(describe(machine.register(callback("b"), on: threads.second)) == "wait")
        #expect(describe(machine.register(callback("c"), on: threads.first)) == "wait")
        #expect(describe(machine.phase) == "pending [a, b, c]")
    }

    @Test func settlingWithoutWaitersCompletes() {
        var machine = Machine()
        #expect(describe(machine.settle(.success(5), on: threads.first, deep: false)) == "settledWithoutWaiters")
        #expect(describe(machine.phase) == "completed")
        #expect(describe(machine.currentState()) == "success 5")
    }

    @Test func settlingTooDeepWithoutWaitersCompletesAsWell() {
        var machine = Machine()
        #expect(describe(machine.settle(.cancelled, on: threads.first, deep: true)) == "settledWithoutWaiters")
        #expect(describe(machine.phase) == "completed")
        #expect(describe(machine.currentState()) == "cancelled")
    }

    @Test func settlingWithWaitersDrainsThemOnTheSettlingThread() {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        _ = machine.register(callback("b"), on: threads.second)
        #expect(describe(machine.settle(.error(TestError(code: 3)), on: threads.second, deep: false)) == "drain [a, b]")
        #expect(describe(machine.phase) == "draining [] by second")
        #expect(describe(machine.currentState()) == "error 3")
    }

    @Test func settlingTooDeepWithWaitersEnqueuesTheDrain() {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        #expect(describe(machine.settle(.success(1), on: threads.first, deep: true)) == "enqueueDrain")
        #expect(describe(machine.phase) == "draining [a] by nobody")
    }

    // MARK: draining

    @Test func aSecondSettlementChangesNothing() {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        _ = machine.settle(.success(1), on: threads.first, deep: false)
        #expect(describe(machine.settle(.success(2), on: threads.first, deep: false)) == "alreadySettled")
        #expect(describe(machine.settle(.cancelled, on: threads.second, deep: true)) == "alreadySettled")
        #expect(describe(machine.phase) == "draining [] by first")
        #expect(describe(machine.currentState()) == "success 1")
    }

    @Test func anotherThreadRegisteringWhileDrainingWaitsForTheDrainer() {
        var machine = drainingMachine()
        #expect(describe(machine.register(callback("c"), on: threads.second)) == "wait")
        #expect(describe(machine.register(callback("d"), on: threads.second)) == "wait")
        #expect(describe(machine.phase) == "draining [c, d] by first")
    }

    /// The settling thread's exception: what the drainer registers itself runs at once, nested, ahead of the
    /// callbacks other threads registered meanwhile and of the rest of the batch (observed order A, C, B).
    @Test func theDrainerRegisteringWhileDrainingRunsItAtOnce() {
        var machine = drainingMachine()
        _ = machine.register(callback("c"), on: threads.second)
        #expect(describe(machine.register(callback("d"), on: threads.first)) == "runNowOnDrainer success 1")
        #expect(describe(machine.phase) == "draining [c] by first")
    }

    /// Bolts' rule: with nothing registered meanwhile, the task completes before its last callback runs.
    @Test func beforeTheLastCallbackWithNothingRegisteredTheDrainStops() {
        var machine = drainingMachine()
        #expect(describe(machine.beforeLastCallback()) == "stopDraining")
        #expect(describe(machine.phase) == "completed")
        #expect(describe(machine.register(callback("late"), on: threads.second)) == "runNow success 1")
    }

    @Test func beforeTheLastCallbackTheDrainerTakesWhatWasRegisteredMeanwhile() {
        var machine = drainingMachine()
        _ = machine.register(callback("c"), on: threads.second)
        _ = machine.register(callback("d"), on: threads.second)
        #expect(describe(machine.beforeLastCallback()) == "drainNext [c, d]")
        #expect(describe(machine.phase) == "draining [] by first")
        #expect(describe(machine.beforeLastCallback()) == "stopDraining")
        #expect(describe(machine.phase) == "completed")
    }

    // MARK: an enqueued drain

    @Test func whileTheDrainIsEnqueuedEveryRegistrationWaits() {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        _ = machine.settle(.success(1), on: threads.first, deep: true)
        #expect(describe(machine.register(callback("b"), on: threads.first)) == "wait")
        #expect(describe(machine.register(callback("c"), on: threads.second)) == "wait")
        #expect(describe(machine.phase) == "draining [a, b, c] by nobody")
    }

    @Test func resumingTheDrainHandsEverythingToTheResumingThread() {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        _ = machine.settle(.success(7), on: threads.first, deep: true)
        _ = machine.register(callback("b"), on: threads.second)
        let (batch, state) = machine.resumeDrain(on: threads.second)
        #expect(names(batch) == ["a", "b"])
        #expect(describe(state) == "success 7")
        #expect(describe(machine.phase) == "draining [] by second")
        #expect(describe(machine.register(callback("c"), on: threads.second)) == "runNowOnDrainer success 7")
        #expect(describe(machine.register(callback("d"), on: threads.first)) == "wait")
        #expect(describe(machine.beforeLastCallback()) == "drainNext [d]")
        #expect(describe(machine.beforeLastCallback()) == "stopDraining")
        #expect(describe(machine.phase) == "completed")
    }

    // MARK: completed, and freed

    @Test func aMachineCreatedCompletedRunsEveryRegistrationAtOnce() {
        var machine = Machine(completedWith: .success(9))
        #expect(describe(machine.phase) == "completed")
        #expect(describe(machine.register(callback("a"), on: threads.first)) == "runNow success 9")
        #expect(describe(machine.settle(.success(10), on: threads.first, deep: false)) == "alreadySettled")
        #expect(describe(machine.currentState()) == "success 9")
        #expect(describe(machine.phase) == "completed")
    }

    @Test func releasingTakesOnlyAPendingTasksCallbacks() {
        var pending = Machine()
        #expect(pending.takeForRelease() == nil)
        _ = pending.register(callback("a"), on: threads.first)
        _ = pending.register(callback("b"), on: threads.first)
        #expect(pending.takeForRelease().map(names) == ["a", "b"])
        #expect(describe(pending.phase) == "pending []")
        var completed = Machine(completedWith: .cancelled)
        #expect(completed.takeForRelease() == nil)
    }

    // MARK: Helpers

    /// A machine settled with 1 on the first thread, whose batch (`a`, `b`) that thread is running.
    func drainingMachine() -> Machine {
        var machine = Machine()
        _ = machine.register(callback("a"), on: threads.first)
        _ = machine.register(callback("b"), on: threads.first)
        _ = machine.settle(.success(1), on: threads.first, deep: false)
        return machine
    }

    /// A callback that, when run, says its name to `heard`.
    func callback(_ name: String) -> BFCallback<Int> {
        { [heard] _, _ in heard.names.append(name) }
    }

    /// The names of `callbacks`, in order (by running them), as in "[a, b]".
    func list(_ callbacks: BFCallbacks<Int>) -> String { "[" + names(callbacks).joined(separator: ", ") + "]" }

    /// The names of `callbacks`, in order (by running them).
    func names(_ callbacks: BFCallbacks<Int>) -> [String] {
        heard.names = []
        let task = BFTask<Int>()
        callbacks.runAllButLast(task, .pending)?(task, .pending)
        return heard.names
    }

    func describe(_ phase: Machine.Phase) -> String {
        switch phase {
        case .pending(let list): "pending \(self.list(list))"
        case .draining(let list, let drainer): "draining \(self.list(list)) by \(threads.name(drainer))"
        case .completed: "completed"
        }
    }

    func describe(_ action: Machine.RegisterAction) -> String {
        switch action {
        case .wait: "wait"
        case .runNow(let state): "runNow \(describe(state))"
        case .runNowOnDrainer(let state): "runNowOnDrainer \(describe(state))"
        }
    }

    func describe(_ action: Machine.SettleAction) -> String {
        switch action {
        case .alreadySettled: "alreadySettled"
        case .settledWithoutWaiters: "settledWithoutWaiters"
        case .drain(let batch): "drain \(list(batch))"
        case .enqueueDrain: "enqueueDrain"
        }
    }

    func describe(_ action: Machine.DrainAction) -> String {
        switch action {
        case .drainNext(let batch): "drainNext \(list(batch))"
        case .stopDraining: "stopDraining"
        }
    }

    func describe(_ state: BFTaskState<Int>) -> String {
        switch state {
        case .pending: "pending"
        case .success(let value): "success \(value)"
        case .error(let error): "error \((error as? TestError)?.code ?? -1)"
        case .cancelled: "cancelled"
        }
    }
}

/// Two threads as the machine sees them: two tokens, the addresses of two trampoline states never initialized or read.
final class Threads: @unchecked Sendable {
    private let states = UnsafeMutablePointer<UInt8>.allocate(capacity: 2)

    var first: Trampoline.Token { Trampoline.Token(states) }
    var second: Trampoline.Token { Trampoline.Token(states + 1) }

    func name(_ token: Trampoline.Token?) -> String {
        switch token {
        case first: "first"
        case second: "second"
        case nil: "nobody"
        default: "another"
        }
    }

    deinit {
        states.deallocate()
    }
}

/// The names the test's callbacks said when run.
final class Heard: @unchecked Sendable {
    var names: [String] = []
}
