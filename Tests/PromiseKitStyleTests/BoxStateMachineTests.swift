// The box's state machine alone: no box, no barrier, no thread. Two made-up tokens stand for two threads; each test
// drives one transition from one phase and checks the action it returns and the phase it leaves.

import PromisePlumbing
import TestSupport
import Testing

@testable import PromiseKitStyle

/// The token of the thread that seals, in these tests (made up: a token is compared, never dereferenced).
private var here: Trampoline.Token { Trampoline.Token(UnsafeRawPointer(bitPattern: 0x1000)!) }
/// The token of any other thread.
private var there: Trampoline.Token { Trampoline.Token(UnsafeRawPointer(bitPattern: 0x2000)!) }

private typealias Machine = BoxStateMachine<String>

/// The phase as text: `pending(2)`, `draining(1, here)`, `draining(0, nil)`, `sealed`.
private func describe(_ phase: Machine.Phase) -> String {
    switch phase {
    case .pending(let waiting): return "pending(\(waiting.count))"
    case .draining(let waiting, let drainer): return "draining(\(waiting.count), \(describe(drainer)))"
    case .sealed: return "sealed"
    }
}

private func describe(_ token: Trampoline.Token?) -> String {
    token.map { $0 == here ? "here" : $0 == there ? "there" : "another" } ?? "nil"
}

private func describe(_ action: Machine.RegisterAction) -> String {
    switch action {
    case .wait: return "wait"
    case .runNow(let value): return "runNow(\(value))"
    case .runNowOnDrainer(let value): return "runNowOnDrainer(\(value))"
    }
}

/// The action as text, and the handlers a `drain` carries.
private func describe(_ action: Machine.SettleAction) -> (String, Handlers<String>?) {
    switch action {
    case .alreadySettled: return ("alreadySettled", nil)
    case .settledWithoutWaiters: return ("settledWithoutWaiters", nil)
    case .drain(let batch): return ("drain(\(batch.count))", batch)
    case .enqueueDrain: return ("enqueueDrain", nil)
    }
}

private func describe(_ action: Machine.DrainAction) -> (String, Handlers<String>?) {
    switch action {
    case .drainNext(let batch): return ("drainNext(\(batch.count))", batch)
    case .stopDraining: return ("stopDraining", nil)
    }
}

/// Records which handlers ran, with which value.
private final class Runs {
    var log: [String] = []
    func handler(_ name: String) -> (String) -> Void { { [self] value in log.append("\(name):\(value)") } }
}

@Suite("PromiseKitStyle's box state machine")
struct BoxStateMachineTests {
    /// A machine draining on `here`, with `pipedMeanwhile` handlers of `runs` waiting; the batch it took has run.
    private func drainingMachine(_ runs: Runs, pipedMeanwhile: [String] = []) -> Machine {
        var machine = Machine()
        _ = machine.register(runs.handler("first"), on: here)
        let (settled, batch) = describe(machine.settle("v", on: here, deep: false))
        #expect(settled == "drain(1)")
        batch?.run("v")
        for name in pipedMeanwhile { #expect(describe(machine.register(runs.handler(name), on: there)) == "wait") }
        return machine
    }

    @Test func aNewMachineIsPendingWithNothingWaiting() {
        var machine = Machine()
        #expect(describe(machine.phase) == "pending(0)")
        #expect(machine.value == nil)
        #expect(machine.inspect() == (nil, 0))
    }

    @Test func registeringWhilePendingWaitsInOrder() {
        let runs = Runs()
        var machine = Machine()
        for name in ["a", "b", "c"] {
            #expect(describe(machine.register(runs.handler(name), on: here)) == "wait")
        }
        #expect(describe(machine.phase) == "pending(3)")
        #expect(machine.inspect() == (nil, 3))
        #expect(runs.log.isEmpty)  // a transition never runs a handler
    }

    @Test func settlingWithoutWaitersSeals() {
        var machine = Machine()
        #expect(describe(machine.settle("v", on: here, deep: false)).0 == "settledWithoutWaiters")
        #expect(describe(machine.phase) == "sealed")
        #expect(machine.value == "v")
    }

    @Test func settlingWithWaitersHandsThemToTheSettlingThread() {
        let runs = Runs()
        var machine = Machine()
        _ = machine.register(runs.handler("a"), on: there)
        _ = machine.register(runs.handler("b"), on: there)
        let (action, batch) = describe(machine.settle("v", on: here, deep: false))
        #expect(action == "drain(2)")
        #expect(describe(machine.phase) == "draining(0, here)")
        #expect(machine.inspect() == ("v", 0))
        batch?.run("v")
        #expect(runs.log == ["a:v", "b:v"])
    }

    @Test func settlingAtTheDepthLimitEnqueuesTheDrain() {
        let runs = Runs()
        var machine = Machine()
        _ = machine.register(runs.handler("a"), on: here)
        #expect(describe(machine.settle("v", on: here, deep: true)).0 == "enqueueDrain")
        #expect(describe(machine.phase) == "draining(1, nil)")  // the list stays; no thread drains yet
        // Until the drain resumes, even the settling thread's own registration waits behind the list.
        #expect(describe(machine.register(runs.handler("b"), on: here)) == "wait")
        #expect(describe(machine.phase) == "draining(2, nil)")
    }

    @Test func resumingTheEnqueuedDrainMakesThisThreadTheDrainer() {
        let runs = Runs()
        var machine = Machine()
        _ = machine.register(runs.handler("a"), on: there)
        _ = machine.settle("v", on: there, deep: true)
        let (batch, value) = machine.resumeDrain(on: here)
        #expect(value == "v")
        #expect(batch.count == 1)
        #expect(describe(machine.phase) == "draining(0, here)")
        #expect(describe(machine.register(runs.handler("b"), on: here)) == "runNowOnDrainer(v)")
    }

    @Test func settlingAgainChangesNothing() {
        var machine = drainingMachine(Runs(), pipedMeanwhile: ["b"])
        #expect(describe(machine.settle("w", on: here, deep: false)).0 == "alreadySettled")
        #expect(describe(machine.phase) == "draining(1, here)")
        _ = machine.afterBatch()
        _ = machine.afterBatch()
        #expect(describe(machine.settle("w", on: there, deep: true)).0 == "alreadySettled")
        #expect(describe(machine.phase) == "sealed")
        #expect(machine.value == "v")
    }

    @Test func anotherThreadRegisteringWhileDrainingWaits() {
        let runs = Runs()
        var machine = drainingMachine(runs)
        #expect(describe(machine.register(runs.handler("b"), on: there)) == "wait")
        #expect(describe(machine.phase) == "draining(1, here)")
        #expect(machine.inspect() == ("v", 1))
    }

    @Test func theDrainingThreadRegisteringRunsAtOnce() {
        let runs = Runs()
        var machine = drainingMachine(runs, pipedMeanwhile: ["b"])
        #expect(describe(machine.register(runs.handler("c"), on: here)) == "runNowOnDrainer(v)")
        #expect(describe(machine.phase) == "draining(1, here)")  // not appended: only `b` waits
    }

    @Test func aBatchWithNothingPipedMeanwhileStopsTheDrain() {
        var machine = drainingMachine(Runs())
        #expect(describe(machine.afterBatch()).0 == "stopDraining")
        #expect(describe(machine.phase) == "sealed")
    }

    @Test func handlersPipedDuringABatchAreTheNextBatch() {
        let runs = Runs()
        var machine = drainingMachine(runs, pipedMeanwhile: ["b", "c"])
        let (action, batch) = describe(machine.afterBatch())
        #expect(action == "drainNext(2)")
        #expect(describe(machine.phase) == "draining(0, here)")  // the same drainer
        batch?.run("v")
        #expect(runs.log == ["first:v", "b:v", "c:v"])
        #expect(describe(machine.afterBatch()).0 == "stopDraining")
    }

    @Test func registeringOnASealedBoxRunsNowOnAnyThread() {
        var machine = Machine()
        _ = machine.settle("v", on: here, deep: false)
        #expect(describe(machine.register({ _ in }, on: here)) == "runNow(v)")
        #expect(describe(machine.register({ _ in }, on: there)) == "runNow(v)")
        #expect(describe(machine.phase) == "sealed")
    }

    @Test func settlingAtCreationSeals() {
        var machine = Machine()
        machine.settleAtCreation("v")
        #expect(describe(machine.phase) == "sealed")
        #expect(machine.inspect() == ("v", 0))
    }

    @Test func releasingAPendingMachineHandsOverItsHandlers() {
        let runs = Runs()
        var machine = Machine()
        _ = machine.register(runs.handler("a"), on: here)
        _ = machine.register(runs.handler("b"), on: here)
        #expect(machine.takeForRelease()?.count == 2)
        #expect(describe(machine.phase) == "pending(0)")
        #expect(runs.log.isEmpty)
    }

    @Test func releasingASealedMachineDestroysItsValueOnce() {
        nonisolated(unsafe) var freed = 0
        do {
            var inline = BoxStateMachine<Tracked>()
            _ = inline.settle(Tracked(id: 1) { freed += 1 }, on: here, deep: false)
            var wide = BoxStateMachine<(Tracked, Wide)>()
            wide.settleAtCreation((Tracked(id: 2) { freed += 1 }, Wide()))
            #expect(freed == 0)
            #expect(inline.takeForRelease() == nil)
            #expect(wide.takeForRelease() == nil)
        }
        #expect(freed == 2)
    }

    /// The box's loop, played by hand on one thread: handler `a` pipes `c` while `b` waits. `c` is registered by the
    /// draining thread, so it runs at once, nested inside `a`, before `b`.
    @Test func aHandlerPipedByTheDrainingThreadRunsBeforeTheWaitingOnes() {
        final class Box {
            var machine = Machine()
            var log: [String] = []
            func pipe(_ name: String, _ body: @escaping () -> Void = {}) {
                let handler: (String) -> Void = { [self] _ in
                    log.append(name)
                    body()
                }
                switch machine.register(handler, on: here) {
                case .wait: break
                case .runNow(let value), .runNowOnDrainer(let value): handler(value)
                }
            }
        }
        let box = Box()
        box.pipe("A") { box.pipe("C") }
        box.pipe("B")
        guard case .drain(var batch) = box.machine.settle("v", on: here, deep: false) else {
            Issue.record("expected a drain")
            return
        }
        while true {
            batch.run("v")
            guard case .drainNext(let next) = box.machine.afterBatch() else { break }
            batch = next
        }
        #expect(box.log == ["A", "C", "B"])
        #expect(describe(box.machine.phase) == "sealed")
    }
}
