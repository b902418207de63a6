import Dispatch

#if !canImport(Darwin) && !DARWIN_STANDINS
    import Synchronization
#endif

/// PromiseKit's configurable parameters, read and written through the global ``conf``.
///
/// Set them early in the program's life. Unlike PromiseKit's, the global is safe to read while another thread writes
/// it: each write publishes a whole new configuration, and each read sees one whole configuration.
public struct PMKConfiguration {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The default queues for handlers: `map` for `then`, `map`, `compactMap`, `recover`, `tap`; `return` for
    /// `done`, `get`, `catch`, `ensure`, `finally`. Both default to `DispatchQueue.main`, which on Linux only runs
    /// blocks while the main thread serves it; servers and command-line tools set
    /// `conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())`. A `nil` queue runs handlers inline.
    public var Q: (map: DispatchQueue?, return: DispatchQueue?) = (map: DispatchQueue.main, return: DispatchQueue.main)

    /// The default policy of `catch` and `recover`: skip cancellation errors.
    public var catchPolicy = CatchPolicy.allErrorsExceptCancellation

    /// Receives PromiseKitStyle's ``LogEvent``s, on whatever thread raised them. The default prints them. Under the
    /// trait CheckedHandlers it is `@Sendable`, like the handlers.
    public var logHandler: PMKGuaranteedHandler<LogEvent, Void> = { event in print(defaultLogMessage(event)) }

    /// The defaults: main-queue handlers, cancellation-skipping `catch`, printing log handler.
    public init() {}
}

// The stored closure and queues are only called or read; each published configuration is immutable (see below).
extension PMKConfiguration: @unchecked Sendable {}

/// One published configuration, never changed once published: the object ``conf`` reads.
///
/// Every handler method reads `conf` for its default queue (and `catch`, `recover` for the default policy), so the
/// read is on the hot path of every chain. Instead of a lock around the configuration, a write publishes a new
/// immutable snapshot and a read loads the current one. On Linux that load is one atomic acquire, with no lock: a
/// snapshot, once published, is never freed (each keeps its predecessor alive through `previous`, and the current
/// one is held by the global), so a reader that loaded a pointer just before a write still reads a live object. A
/// write is rare (configuration is set early in a program's life), so the chain stays short; it retains the queues
/// and log handlers of earlier configurations. On Apple platforms,
/// where `Synchronization`'s `Atomic` needs macOS 15 / iOS 18, the current snapshot is read under the module's
/// `os_unfair_lock` barrier (see `Barrier.swift`) and a replaced one is freed normally.
@usableFromInline
final class PMKConfigurationSnapshot: Sendable {
    /// The configuration this snapshot publishes.
    @usableFromInline let configuration: PMKConfiguration
    /// The snapshot this one replaced, kept alive for readers that loaded it before the replacement (Linux only).
    private let previous: PMKConfigurationSnapshot?

    init(_ configuration: PMKConfiguration, replacing previous: PMKConfigurationSnapshot?) {
        self.configuration = configuration
        self.previous = previous
    }

    #if canImport(Darwin) || DARWIN_STANDINS
        /// The current snapshot, read under the lock.
        @usableFromInline static var current: PMKConfigurationSnapshot { publishedConfiguration.read { $0 } }

        /// Makes `configuration` the one later reads see.
        static func publish(_ configuration: PMKConfiguration) {
            publishedConfiguration.write { $0 = PMKConfigurationSnapshot(configuration, replacing: nil) }
        }
    #else
        /// The current snapshot: one atomic load, no lock (see the type's comment).
        @inlinable static var current: PMKConfigurationSnapshot {
            publishedConfiguration.load(ordering: .acquiring).takeUnretainedValue()
        }

        /// Makes `configuration` the one later reads see: the new snapshot keeps the one it replaces alive.
        static func publish(_ configuration: PMKConfiguration) {
            var replaced = publishedConfiguration.load(ordering: .relaxed)
            while true {
                let snapshot = Unmanaged.passRetained(
                    PMKConfigurationSnapshot(configuration, replacing: replaced.takeUnretainedValue()))
                let (exchanged, current) = publishedConfiguration.compareExchange(
                    expected: replaced, desired: snapshot, ordering: .acquiringAndReleasing)
                if exchanged {
                    replaced.release()  // the global's reference; `snapshot.previous` holds it from now on
                    return
                }
                snapshot.release()  // another write won; chain onto the snapshot it published
                replaced = current
            }
        }
    #endif
}

#if canImport(Darwin) || DARWIN_STANDINS
    // Apple platforms: the module's own barrier, an `os_unfair_lock` there (see `Barrier.swift`).
    private let publishedConfiguration = Barriered(PMKConfigurationSnapshot(PMKConfiguration(), replacing: nil))
#else
    /// The current snapshot, retained once on behalf of this global.
    @usableFromInline let publishedConfiguration = Atomic(
        Unmanaged.passRetained(PMKConfigurationSnapshot(PMKConfiguration(), replacing: nil)))
#endif

/// The global configuration. Modify it as early as possible in the program's life, e.g.
/// `conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())` for a server or command-line tool.
///
/// Each write publishes a new configuration that every later read sees; reads take no lock on Linux.
public var conf: PMKConfiguration {
    @inlinable get { PMKConfigurationSnapshot.current.configuration }
    set { PMKConfigurationSnapshot.publish(newValue) }
}

/// The line the default `logHandler` prints for `event`: PromiseKit 8's words.
func defaultLogMessage(_ event: LogEvent) -> String {
    switch event {
    case .waitOnMainThread: return "PromiseKit: warning: `wait()` called on main thread!"
    case .pendingPromiseDeallocated: return "PromiseKit: warning: pending promise deallocated"
    case .pendingGuaranteeDeallocated: return "PromiseKit: warning: pending guarantee deallocated"
    case .cauterized(let error): return "PromiseKit:cauterized-error: \(error)"
    }
}
