import Dispatch
import PromiseConformance
@preconcurrency import ReactiveSwift

/// A promise as a ReactiveSwift user makes a one-shot asynchronous value: a `SignalProducer` whose first value (or
/// failure) is the outcome, shared with every later subscriber by `replayLazily(upTo: 1)`.
///
/// ReactiveSwift's types are not declared `Sendable` (the library is built in Swift 5 mode, with no annotations), so
/// the producer travels in this wrapper. A `SignalProducer` is an immutable value (a recipe), and the `Signal`s and
/// observers behind it serialize their events under locks (`Sources/Signal.swift`), so passing it between threads is
/// safe.
public struct ReactivePromise: @unchecked Sendable {
    /// The library's producer: its first value is the promise's value, its failure the promise's reason.
    public let producer: SignalProducer<Sentinel, any Error>
}

/// Plugs ReactiveSwift's `SignalProducer` into the conformance suite. ReactiveSwift is not a promise library; the
/// adapter writes each promise operation the way its documentation writes one-shot work:
///
/// - **A pending promise** is `Signal.pipe()` (the library's way to push events in from outside, its counterpart of
///   a subject), turned into a producer with `SignalProducer(signal)`, cut to its first event with `take(first: 1)`,
///   and shared with `replayLazily(upTo: 1)`, which caches the one value and its termination for subscribers that
///   come later. A promise's value must reach handlers registered after it settled, and a `Signal` does not keep
///   events (a late observer of a terminated signal gets `interrupted`, `Documentation/APIContracts.md:223-226`), so
///   a replaying producer is needed. Its documentation steers toward `Property` when a current value is always there,
///   which a pending promise has not, and recommends `replayLazily` "when you absolutely need to introduce a layer of
///   caching in front of another `SignalProducer`" (`Sources/SignalProducer.swift:2746-2747`), which is what a
///   promise's outcome is. `replayLazily` starts its upstream on its first
///   start only, so the adapter starts it once as soon as it is made: otherwise a settlement sent before the first
///   handler would be lost. Fulfilling is `send(value:)` and `sendCompleted()`; rejecting is `send(error:)`. A second
///   settlement is ignored by the signal (it has terminated) or by `take(first: 1)`.
/// - **`then`** takes the first outcome (`take(first: 1)`), makes it a value with `materializeResults()` (so that the
///   rejection handler never sees the fulfilment handler's error, as `flatMapError` would), hops to the queue asked
///   for with `observe(on: QueueScheduler(targeting: queue))`, and calls the matching handler in
///   `flatMap(.concat)`, whose inner producer is what the handler asks for (`SignalProducer(value:)`,
///   `SignalProducer(error:)`, or the adopted promise's producer). The result is shared and started at once like a
///   pending promise, so that the handler runs once whether or not anyone subscribes to the derived promise.
/// - **No queue** (the implementation's default): no scheduler at all. ReactiveSwift sends events synchronously by
///   default ("Events are sent synchronously by default", `Documentation/APIContracts.md:172-181`), so the handler runs on
///   the thread that settles the promise, or inside `then` when it is settled already.
/// - **`all`** is `SignalProducer.zip(_:emptySentinel:)` (`Sources/SignalProducer.swift:2300`): for producers of one
///   value each it sends one array in input order, and fails with the first failure. **`race`** is the library's own
///   race, `FlattenStrategy.race` (`SignalProducer(inputs).flatten(.race)`, `Sources/Flatten.swift:87`: "Forward only
///   events from the first inner stream that sends an event"), rather than `merge` and `take(first: 1)`, a composition
///   the user would write. ReactiveSwift has no combinator that waits for the first *value* while ignoring failures,
///   so `any` is not declared.
/// - **Cancellation** is not declared. ReactiveSwift's cancellation is disposing the `Disposable` that `start`
///   returns, which interrupts that one produced signal and "will not affect other signals created by the same
///   `SignalProducer`" (`Documentation/APIContracts.md:312`): there is no cancelling of the value every subscriber
///   shares. And its `interrupted` event is not an error: "the operation was neither successful nor unsuccessful"
///   (`Documentation/FrameworkOverview.md:31-33`), so it never reaches a failure handler (`flatMapError`,
///   `on(failed:)`), where the suite's cancellation is a rejection that rejection handlers see. Mapping one onto the
///   other would mean inventing the cancellation error in the adapter.
/// - ReactiveSwift has no notion of a foreign thenable (`SignalProducerConvertible` is a conversion the user writes,
///   not a resolution procedure), so assimilation uses the suite's ``Assimilation`` helper.
public struct ReactiveSwiftAdapter: PromiseAdapter, Codable {
    /// The wrapper around the library's `SignalProducer`.
    public typealias Promise = ReactivePromise

    /// Creates the adapter.
    public init() {}

    /// The column title: `ReactiveSwift`.
    public var name: String { "ReactiveSwift" }

    /// Assimilation (through the suite's helper), `all` (`zip`) and `race` (`flatten(.race)`).
    public var capabilities: Capabilities { [.assimilation, .all, .race] }

    /// Where ReactiveSwift departs from Promises/A+ by design, as the suite observed it (ReactiveSwift 7.2.1), and the
    /// one rule the adapter cannot map onto it. The 2.2.4 cases, `swift.deepChain`, `swift.deepChain.dropped` and the
    /// fulfilled-root cases of `swift.deepChain.settled` follow from one documented choice: with no scheduler, events
    /// are delivered synchronously, on the sender's stack. The 2.2.4 case "then called inside a handler of the same
    /// rejected promise" is not declared: it traps instead of running the handler synchronously (see the report). Nor
    /// are the rejected-root cases of `swift.deepChain.settled`: a signal keeps its failure as `Swift.Error`, which
    /// boxes an error of type `Swift.Error` once more per signal, so the end of a chain gets its reason nested
    /// thousands of boxes deep (`Demos/ReactiveSwift/error-boxes.swift`). 2.3.1 is a misfit, not a departure of the library: it has no resolution procedure and a
    /// producer has no identity, so "the derived promise itself" is the adapter's own construction (see the reason).
    /// The order of handlers between subscribers is not promised (``subscriberOrder``): declared for the case of
    /// `swift.concurrentRegistration` that shows it every time, and for the generated programs' 2.2.6.1 and 2.2.6.2;
    /// the fixed 2.2.6 clauses are ``flakyDepartures``.
    public var deviations: [String: String] {
        let synchronous =
            "Documentation/APIContracts.md:172-181 ('Events are sent synchronously by default': 'A vanilla signal or "
            + "producer will send all of its events synchronously by default, meaning that the observer will be "
            + "synchronously invoked for each event as it is sent'). With no queue the adapter adds no scheduler: "
            + "Sources/Signal.swift:123 calls each observer inside send (so inside fulfil and reject), and "
            + "Sources/SignalProducer.swift:2809 replays a cached value to a new subscriber inside start (so inside then)."
        let deep =
            "Documentation/APIContracts.md:172-181 (events are sent synchronously by default): each link of the chain "
            + "is an observer of the previous link's producer, so a settlement (Sources/Signal.swift:123, "
            + "Sources/SignalProducer.swift:2777) or, for the dropped chain, the interruption sent when the pipe's input "
            + "observer is released (Sources/Signal.swift:80, Sources/Signal.Observer.swift:85-91) travels the "
            + "20,000 or 100,000 links on one stack, frame upon frame, and overflows the 1 MiB stack (SIGSEGV). The case "
            + "'on a serial queue', where each link hops through a QueueScheduler, passes."
        let selfAdoption =
            "Not a departure of ReactiveSwift but a misfit of the rule: ReactiveSwift has no resolution procedure, and "
            + "a SignalProducer is 'a value type' with no identity (Documentation/APIContracts.md:259-260), so there is "
            + "no promise 'resolved with itself' for it to detect. flatMap starts whatever producer its transform "
            + "returns (Sources/Flatten.swift:330); the adapter's derived promise is a replayed producer, and handed "
            + "back to its own flatMap it adds one more subscriber to its own replay state "
            + "(Sources/SignalProducer.swift:2788-2789, :3023) and waits for its own first event. The cycle is the "
            + "adapter's construction; detecting it would mean inventing in the adapter a rejection the library has not."
        let deepSettled =
            "Documentation/APIContracts.md:172-181 (events are sent synchronously by default): through the adapter's "
            + "then with no queue, each link observes the previous link's replayed producer, so the root's value "
            + "reaches the end of the chain inside send (Sources/Signal.swift:123, Sources/SignalProducer.swift:2777), "
            + "one nested delivery per link, about 7 KB of stack a link in a debug build. The ways on a serial queue, "
            + "where each link hops through a QueueScheduler, are not reached: the first failing way ends the case. "
            + "The rejected roots are not declared: they fail on the reason's boxes (Demos/ReactiveSwift/error-boxes.swift)."
        let deepDropped =
            "Documentation/APIContracts.md:172-181 (events are sent synchronously by default): dropping an unsettled "
            + "chain releases the pipe's input observer, which sends interrupted (Sources/Signal.swift:80, "
            + "Sources/Signal.Observer.swift:85-91) through every link on one stack, and settling a chain (this clause "
            + "measures the settlement with the release) delivers synchronously the same way; the clause builds its "
            + "chains with no queue, through the adapter's then and through each entry point."
        return [
            "swift.deepChain.settled#handlers return a value, fulfilled root": deepSettled,
            "swift.deepChain.settled#handlers return a settled promise, fulfilled root": deepSettled,
            "swift.deepChain.settled#handlers return a thenable, fulfilled root": deepSettled,
            "swift.deepChain.settled#no handler for the outcome, fulfilled root": deepSettled,
            "swift.deepChain.dropped": deepDropped,
            "2.2.4#then on an already-fulfilled promise": synchronous,
            "2.2.4#handler registered on a pending promise, then fulfilled": synchronous,
            "2.2.4#then called inside a handler of the same fulfilled promise": synchronous,
            "2.2.4#then on an already-rejected promise": synchronous,
            "2.2.4#handler registered on a pending promise, then rejected": synchronous,
            "swift.deepChain": deep,
            "2.3.1": selfAdoption,
            "generated#2.2.6.1": Self.subscriberOrder,
            "generated#2.2.6.2": Self.subscriberOrder,
            "swift.concurrentRegistration#registered while the promise is fulfilled": Self.subscriberOrder,
        ]
    }

    /// Why the order of handlers on one promise is not ReactiveSwift's to keep: each handler is a subscriber of its
    /// own, and the library promises an order to the observers of one signal, not between subscribers.
    static let subscriberOrder =
        "ReactiveSwift promises order within one signal: 'All observers of a signal see the same events in the same "
        + "order' (Documentation/APIContracts.md:211-221), and replayLazily that 'all clients of this SignalProducer will "
        + "see the same version of the emitted values/errors' (Sources/SignalProducer.swift:2730-2731). Each handler here "
        + "is its own start of the replayed producer, and 'Each produced signal may send different events at different "
        + "times' (Documentation/APIContracts.md:278-287): nothing orders one subscriber's delivery against another's. "
        + "replayLazily caches the value and copies its subscriber list under its lock, then sends outside it "
        + "(Sources/SignalProducer.swift:2773-2777, :3043); a subscriber that starts in between gets the cached value in "
        + "its own start (:2995, :2809), ahead of earlier subscribers still waiting, when it wins that race."

    /// Handler order between subscribers, which depends on a race (see ``subscriberOrder``): 2.2.6.1 and 2.2.6.2 fail
    /// in some runs and pass in others. The same race in `swift.concurrentRegistration`'s case "registered while the
    /// promise is fulfilled", where 400 registrations race the settlement, showed in every run and every one of 10
    /// repetitions, so that case is a deviation (``deviations``), not a flaky departure.
    public var flakyDepartures: [String: String] {
        [
            "2.2.6.1": Self.subscriberOrder,
            "2.2.6.2": Self.subscriberOrder,
        ]
    }

    /// A pipe's signal, cut to its first event and replayed, started at once; `send(value:)` with `sendCompleted()`,
    /// and `send(error:)`.
    public func pending() -> (
        promise: ReactivePromise, fulfill: @Sendable (Sentinel) -> Void, reject: @Sendable (any Error) -> Void
    ) {
        let (signal, observer) = Signal<Sentinel, any Error>.pipe()
        let promise = Self.shared(SignalProducer(signal))
        return (
            promise,
            { value in
                observer.send(value: value)
                observer.sendCompleted()
            },
            { error in observer.send(error: error) }
        )
    }

    /// The first outcome as a value, on the queue asked for, then `flatMap(.concat)` into what the handler asks for.
    public func then(
        _ promise: ReactivePromise, on queue: DispatchQueue?,
        onFulfilled: (@Sendable (Sentinel) -> HandlerResult<ReactivePromise>)?,
        onRejected: (@Sendable (any Error) -> HandlerResult<ReactivePromise>)?
    ) -> ReactivePromise {
        var outcome = promise.producer.take(first: 1).materializeResults()
        if let queue { outcome = outcome.observe(on: QueueScheduler(targeting: queue)) }
        let derived = outcome.flatMap(.concat) { result -> SignalProducer<Sentinel, any Error> in
            switch result {
            case .success(let value):
                guard let onFulfilled else { return SignalProducer(value: value) }
                return producer(for: onFulfilled(value))
            case .failure(let error):
                guard let onRejected else { return SignalProducer(error: error) }
                return producer(for: onRejected(error))
            }
        }
        return Self.shared(derived)
    }

    /// A promise settled by the suite's ``Assimilation`` helper.
    public func assimilated(_ thenable: any Thenable) -> ReactivePromise {
        let (promise, fulfill, reject) = pending()
        Assimilation.resolve(thenable) { outcome in
            switch outcome {
            case .success(let value): fulfill(value)
            case .failure(let error): reject(error)
            }
        }
        return promise
    }

    /// `SignalProducer.zip(_:emptySentinel:)`: every value in input order, or the first failure.
    public func all(
        _ promises: [ReactivePromise], completion: @escaping @Sendable (Result<[Sentinel], any Error>) -> Void
    ) {
        SignalProducer.zip(promises.map(\.producer), emptySentinel: [])
            .take(first: 1)
            .startWithResult { completion($0) }
    }

    /// `flatten(.race)` over the inputs: the events of the first input that sends one.
    public func race(_ promises: [ReactivePromise]) -> ReactivePromise {
        Self.shared(SignalProducer(promises.map(\.producer)).flatten(.race))
    }

    /// What the handler asks for, as the inner producer of `flatMap`.
    private func producer(for result: HandlerResult<ReactivePromise>) -> SignalProducer<Sentinel, any Error> {
        switch result {
        case .fulfill(let value): SignalProducer(value: value)
        case .reject(let error): SignalProducer(error: error)
        case .adopt(let other): other.producer
        case .assimilate(let thenable): assimilated(thenable).producer
        }
    }

    /// Nothing: a `SignalProducer` is a value ("a value type, and has no memory management to speak of",
    /// `Documentation/APIContracts.md:259-260`) and the objects behind it are internal to the library, so
    /// `swift.release` and `swift.deepChain` check that the handlers are freed, not the promise.
    public func lifetimeObject(of promise: ReactivePromise) -> AnyObject? { nil }

    /// `producer`'s first event, replayed to every subscriber by `replayLazily(upTo: 1)`, and started once now so that
    /// the work runs (and its outcome is kept) whether or not anyone subscribes later.
    static func shared(_ producer: SignalProducer<Sentinel, any Error>) -> ReactivePromise {
        let replayed = producer.take(first: 1).replayLazily(upTo: 1)
        replayed.start()
        return ReactivePromise(producer: replayed)
    }
}
