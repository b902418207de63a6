import Dispatch

#if !canImport(Darwin)
    import Synchronization
#endif

/// PromiseKit's configurable parameters, read and written through the global ``conf``.
///
/// Set them early in the program's life. Unlike PromiseKit's, the global is guarded by a lock, so a read racing a
/// write is safe (each access sees a whole configuration).
public struct PMKConfiguration {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The default queues for handlers: `map` for `then`, `map`, `compactMap`, `recover`, `tap`; `return` for
    /// `done`, `get`, `catch`, `ensure`, `finally`. Both default to `DispatchQueue.main`, which on Linux only runs
    /// blocks while the main thread serves it; servers and command-line tools set
    /// `conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())`. A `nil` queue runs handlers inline.
    public var Q: (map: DispatchQueue?, return: DispatchQueue?) = (map: DispatchQueue.main, return: DispatchQueue.main)

    /// The default policy of `catch` and `recover`: skip cancellation errors.
    public var catchPolicy = CatchPolicy.allErrorsExceptCancellation

    /// Receives PromiseKitStyle's ``LogEvent``s, on whatever thread raised them. The default prints them.
    public var logHandler: (LogEvent) -> Void = { event in
        switch event {
        case .waitOnMainThread:
            print("PromiseKit: warning: `wait()` called on main thread!")
        case .pendingPromiseDeallocated:
            print("PromiseKit: warning: pending promise deallocated")
        case .pendingGuaranteeDeallocated:
            print("PromiseKit: warning: pending guarantee deallocated")
        case .cauterized(let error):
            print("PromiseKit:cauterized-error: \(error)")
        }
    }

    /// The defaults: main-queue handlers, cancellation-skipping `catch`, printing log handler.
    public init() {}
}

// The stored closure and queues are only called or read; the global below is guarded by a lock.
extension PMKConfiguration: @unchecked Sendable {}

#if canImport(Darwin)
    // Apple platforms: the module's own barrier, an `os_unfair_lock` there (see `Box.swift`); `Mutex` would need
    // macOS 15 / iOS 18.
    private let configuration = Barriered(PMKConfiguration())
#else
    private let configuration = Mutex(PMKConfiguration())
#endif

/// The global configuration. Modify it as early as possible in the program's life, e.g.
/// `conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.global())` for a server or command-line tool.
public var conf: PMKConfiguration {
    get {
        #if canImport(Darwin)
            return configuration.read { $0 }
        #else
            return configuration.withLock { $0 }
        #endif
    }
    set {
        #if canImport(Darwin)
            configuration.write { $0 = newValue }
        #else
            configuration.withLock { $0 = newValue }
        #endif
    }
}
