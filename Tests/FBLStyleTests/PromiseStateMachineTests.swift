// The state machine of FBLStyle's core alone: no promise, no lock, no thread. Every transition from every phase, with
// the action it returns and the phase it leaves (Sources/FBLStyle/Core/PromiseStateMachine.swift).
import Testing

@testable import FBLStyle

extension FBLStyleTests {
    @Suite struct StateMachine {
        typealias Machine = PromiseStateMachine<Int>

        /// An observer that records its name in `log` when it runs.
        static func observer(_ name: String, _ log: Box<[String]>) -> Promise<Int>.Observer {
            Promise<Int>.Observer(queue: nil) { _ in log.value.append(name) }
        }

        /// A machine whose observers are `names`, each recording into `log`.
        static func pending(_ names: [String], _ log: Box<[String]>) -> Machine {
            var machine = Machine(phase: .pending(Machine.Observers()))
            for name in names { #expect(machine.register(observer(name, log)) == .wait) }
            return machine
        }

        /// Runs the observers of `list` in order and returns what they recorded.
        static func run(_ list: Machine.Observers, _ log: Box<[String]>) -> [String] {
            log.value = []
            var list = list
            while let observer = list.removeFirst() { observer.body(.success(0)) }
            return log.value
        }

        /// The observers `.drain` hands out, or `nil` for another action.
        static func batch(of action: Machine.SettleAction) -> Machine.Observers? {
            if case .drain(let batch) = action { batch } else { nil }
        }

        /// The observers `.drainNext` hands out, or `nil` for `.stopDraining`.
        static func batch(of action: Machine.DrainAction) -> Machine.Observers? {
            if case .drainNext(let batch) = action { batch } else { nil }
        }

        /// The phase as a word, and the names of the observers it holds, for comparing phases.
        static func describe(_ machine: Machine, _ log: Box<[String]>) -> String {
            switch machine.phase {
            case .pending(let list): "pending \(run(list, log))"
            case .draining(let list): "draining \(run(list, log))"
            case .resolved: "resolved"
            }
        }

        // MARK: pending

        /// pending + register -> pending with the observer appended: `.wait`, in registration order.
        @Test func registeringOnAPendingMachineWaitsInOrder() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a", "b"], log)
            #expect(machine.register(Self.observer("c", log)) == .wait)
            #expect(Self.describe(machine, log) == "pending [\"a\", \"b\", \"c\"]")
            #expect(machine.phase.name == "pending")
        }

        /// pending, no observer + settle -> resolved: `.settledWithoutWaiters`.
        @Test func settlingWithoutObserversResolvesAtOnce() {
            let log = Box<[String]>([])
            var machine = Self.pending([], log)
            guard case .settledWithoutWaiters = machine.settle() else {
                Issue.record("expected .settledWithoutWaiters")
                return
            }
            #expect(Self.describe(machine, log) == "resolved")
            #expect(machine.phase.name == "resolved")
        }

        /// pending(observers) + settle -> draining with an empty list: `.drain(observers)`, in registration order.
        @Test func settlingWithObserversDrainsThem() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a", "b", "c"], log)
            guard case .drain(let batch) = machine.settle() else {
                Issue.record("expected .drain")
                return
            }
            #expect(Self.run(batch, log) == ["a", "b", "c"])
            #expect(Self.describe(machine, log) == "draining []")
            #expect(machine.phase.name == "draining" && !machine.isPending, "draining is neither pending nor resolved")
        }

        /// pending(observers) + takeForRelease -> resolved: the observers, for `deinit` to let go of; pending without
        /// observers: `nil`, unchanged.
        @Test func takeForReleaseTakesThePendingObservers() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a", "b"], log)
            let taken = machine.takeForRelease()
            #expect(taken.map { Self.run($0, log) } == ["a", "b"])
            #expect(Self.describe(machine, log) == "resolved")
            var empty = Self.pending([], log)
            #expect(empty.takeForRelease() == nil)
            #expect(Self.describe(empty, log) == "pending []")
        }

        // MARK: draining

        /// draining + register -> draining with the observer appended: `.wait`. The rule "none nested": FBL has no
        /// `.runNowOnDrainer`, so an observer the draining thread itself registers from inside an observer of the
        /// batch waits too, and runs after the batch (Bolts and PromiseKit would run it at once, nested).
        @Test func registeringWhileDrainingWaitsEvenFromTheDrainingThread() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a", "b"], log)
            guard case .drain(var batch) = machine.settle() else {
                Issue.record("expected .drain")
                return
            }
            // The draining thread runs "a", which registers "c" on the same promise; then it runs "b".
            log.value = []
            batch.removeFirst()?.body(.success(0))
            #expect(machine.register(Self.observer("c", log)) == .wait)
            batch.removeFirst()?.body(.success(0))
            #expect(log.value == ["a", "b"], "c did not run nested inside a")
            guard case .drainNext(let next) = machine.afterBatch() else {
                Issue.record("expected .drainNext")
                return
            }
            #expect(Self.run(next, log) == ["c"], "c runs in its turn, after the batch")
        }

        /// draining + settle -> unchanged: `.alreadySettled` (a second fulfill or reject changes nothing).
        @Test func settlingWhileDrainingChangesNothing() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a"], log)
            _ = machine.settle()
            #expect(machine.register(Self.observer("b", log)) == .wait)
            guard case .alreadySettled = machine.settle() else {
                Issue.record("expected .alreadySettled")
                return
            }
            #expect(Self.describe(machine, log) == "draining [\"b\"]")
        }

        /// draining(registered) + afterBatch -> draining with an empty list: `.drainNext(registered)`; draining with
        /// nobody registered + afterBatch -> resolved: `.stopDraining`. FBL stops after the batch.
        @Test func afterBatchDrainsTheNextBatchThenStops() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a"], log)
            _ = machine.settle()
            #expect(machine.register(Self.observer("b", log)) == .wait)
            #expect(machine.register(Self.observer("c", log)) == .wait)
            guard case .drainNext(let next) = machine.afterBatch() else {
                Issue.record("expected .drainNext")
                return
            }
            #expect(Self.run(next, log) == ["b", "c"])
            #expect(Self.describe(machine, log) == "draining []")
            guard case .stopDraining = machine.afterBatch() else {
                Issue.record("expected .stopDraining")
                return
            }
            #expect(Self.describe(machine, log) == "resolved")
            #expect(machine.phase.name == "resolved")
        }

        /// draining + takeForRelease -> unchanged, `nil` (a draining promise is never deallocated: its resolving thread
        /// holds it).
        @Test func takeForReleaseTakesNothingWhileDraining() {
            let log = Box<[String]>([])
            var machine = Self.pending(["a"], log)
            _ = machine.settle()
            #expect(machine.register(Self.observer("b", log)) == .wait)
            #expect(machine.takeForRelease() == nil)
            #expect(Self.describe(machine, log) == "draining [\"b\"]")
        }

        // MARK: resolved

        /// resolved + register -> resolved: `.runNow` (the promise runs the observer with its stored resolution).
        @Test func registeringOnAResolvedMachineRunsNow() {
            let log = Box<[String]>([])
            var machine = Machine(phase: .resolved)
            #expect(machine.register(Self.observer("a", log)) == .runNow)
            #expect(Self.describe(machine, log) == "resolved")
            #expect(log.value.isEmpty, "the machine runs no observer itself")
        }

        /// resolved + settle -> resolved: `.alreadySettled`; resolved + takeForRelease -> resolved, `nil`.
        @Test func settlingOrReleasingAResolvedMachineChangesNothing() {
            let log = Box<[String]>([])
            var machine = Machine(phase: .resolved)
            guard case .alreadySettled = machine.settle() else {
                Issue.record("expected .alreadySettled")
                return
            }
            #expect(machine.takeForRelease() == nil)
            #expect(Self.describe(machine, log) == "resolved")
        }

        /// A whole life: pending, draining through two batches, resolved; then a late observer runs now.
        @Test func aWholeLife() throws {
            let log = Box<[String]>([])
            var machine = Self.pending(["a"], log)
            let first = try #require(Self.batch(of: machine.settle()))
            #expect(Self.run(first, log) == ["a"])
            #expect(machine.register(Self.observer("b", log)) == .wait)
            let second = try #require(Self.batch(of: machine.afterBatch()))
            #expect(Self.run(second, log) == ["b"])
            #expect(Self.batch(of: machine.afterBatch()) == nil, "stops after a batch that left nobody behind")
            #expect(machine.register(Self.observer("c", log)) == .runNow)
        }

        /// afterBatch is only for the draining thread: on a pending or resolved machine it stops the program.
        @Test func afterBatchOutsideDrainingIsAProgrammingError() async {
            await #expect(processExitsWith: .failure) {
                var machine = PromiseStateMachine<Int>(phase: .pending(Promise<Int>.ObserverList()))
                _ = machine.afterBatch()
            }
            await #expect(processExitsWith: .failure) {
                var machine = PromiseStateMachine<Int>(phase: .resolved)
                _ = machine.afterBatch()
            }
        }
    }
}
