import BoltsStyle
import Dispatch
import FBLStyle
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

/// Weak references to a source and its conversion.
struct WeakPair {
    weak var source: AnyObject?
    weak var target: AnyObject?
}

/// An ordered pair of distinct styles.
struct Pair: Sendable, CustomTestStringConvertible {
    let source: Style
    let target: Style
    var testDescription: String { "\(source.rawValue) → \(target.rawValue)" }

    static let all: [Pair] = Style.allCases.flatMap { source in
        Style.targets.filter { $0 != source }.map { Pair(source: source, target: $0) }
    }
}

extension Style {
    /// What PromiseKitStyle logs when a pending promise of this style is freed (`PromiseKitLog`'s names), if anything.
    var droppedPendingEvent: String? {
        switch self {
        case .pmk: return "pendingPromiseDeallocated"
        case .guarantee: return "pendingGuaranteeDeallocated"
        case .bolts, .fbl: return nil
        }
    }
}

/// Each test that records PromiseKitStyle's log holds the process-wide test lock, and so waits for it: the
/// conformance tests hold it for each clause they run over PromiseKitStyle (silencing its log), some of which build
/// thousands of chains. A recording is a brief hold, which waits for the clause in progress but not for those queued
/// (`ProcessWideTestLock.Hold`); the hang guard counts that wait, three times over.
@Suite(
    "A conversion retains its source only until the source settles",
    timeLimit(minutes: 3 * TestEnvironment.hangGuardMinutes))
struct MemoryTests {
    @Test(arguments: Pair.all)
    func settledSourceIsReleasedWhileItsConversionLives(_ pair: Pair) async {
        var target: AnyPromise<Int>?
        var weak = WeakPair()
        do {
            let (source, settle) = makePending(pair.source)
            target = source.converted(to: pair.target)
            weak.source = source.object
            settle(.value, 1, IdentifiedError())
            _ = await target!.settled()
        }
        #expect(await eventually { weak.source == nil }, "the conversion kept its settled source")
        #expect(target?.observed != nil)
    }

    @Test(arguments: Pair.all)
    func alreadySettledSourceIsNotRetained(_ pair: Pair) async {
        var target: AnyPromise<Int>?
        var weak = WeakPair()
        do {
            let (source, settle) = makePending(pair.source)
            settle(.value, 1, IdentifiedError())
            weak.source = source.object
            target = source.converted(to: pair.target)
            _ = await target!.settled()
        }
        #expect(await eventually { weak.source == nil })
        #expect(target != nil)
    }

    @Test(arguments: Pair.all)
    func pendingSourceIsNotRetainedByItsConversion(_ pair: Pair) async {
        let events = await PromiseKitLog.record {
            var target: AnyPromise<Int>?
            var weak = WeakPair()
            do {
                let (source, _) = makePending(pair.source)
                target = source.converted(to: pair.target)
                weak.source = source.object
            }
            // The source was dropped unsettled (with its resolver): the conversion did not keep it alive.
            #expect(await eventually { weak.source == nil })
            #expect(target?.observed == nil)
        }
        // The source, freed pending (a conversion into PromiseKitStyle is made as PromiseKit's own derived promises
        // are, without the warning).
        #expect(events == [pair.source.droppedPendingEvent].compactMap { $0 })
    }

    @Test(arguments: Pair.all)
    func conversionOfANeverSettledSourceIsReleasedWithTheSource(_ pair: Pair) async {
        let events = await PromiseKitLog.record {
            var weak = WeakPair()
            var keep: AnyPromise<Int>?
            var keepSettle: (@Sendable (Outcome, Int, IdentifiedError) -> Void)?
            do {
                let (source, settle) = makePending(pair.source)
                let target = source.converted(to: pair.target)
                weak.source = source.object
                weak.target = target.object
                keep = source
                keepSettle = settle
            }
            // While the source lives, it holds its conversion's callback (and so the conversion).
            #expect(weak.target != nil)
            keep = nil
            keepSettle = nil
            #expect(keep == nil && keepSettle == nil)
            #expect(await eventually { weak.source == nil && weak.target == nil })
        }
        // The source, freed pending (a conversion into PromiseKitStyle is made as PromiseKit's own derived promises
        // are, without the warning).
        #expect(events == [pair.source.droppedPendingEvent].compactMap { $0 })
    }

    @Test func longLivedBoltsTokenDoesNotKeepACompletedTask() async throws {
        let source = BFCancellationTokenSource()
        weak var weakTask: BFTask<Int>?
        do {
            let task = BFTask<Int>(cancellationToken: source.token) { 1 }
            weakTask = task
            #expect(try await task.async() == 1)
        }
        #expect(await eventually { weakTask == nil })
        #expect(!source.isCancellationRequested)
    }
}
