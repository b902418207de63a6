// BFContinuationBlock.swift: the types of the closures BoltsStyle runs later or on an executor.
//
// Bolts names its continuation type `BFContinuationBlock`. Without the trait CheckedHandlers (the default) each alias
// is the plain closure type Bolts-Swift's signatures spell out, so the API is Bolts'. With it, each is `@Sendable`: a
// continuation that touches main-actor state or captures a mutable variable does not compile unless it is made safe
// to run on another thread (docs/guide.md, "Swift 6 with checked handlers").

#if CheckedHandlers
    /// A continuation that takes a task or its value and may throw: `@Sendable (Input) throws -> Output` under
    /// CheckedHandlers.
    public typealias BFContinuationBlock<Input, Output> = @Sendable (Input) throws -> Output
    /// The work of a task started with `execute`: `@Sendable () throws -> Output` under CheckedHandlers.
    public typealias BFExecutionBlock<Output> = @Sendable () throws -> Output
    /// A block an executor runs or a cancellation token calls: `@Sendable () -> Void` under CheckedHandlers.
    public typealias BFBlock = @Sendable () -> Void
#else
    /// A continuation that takes a task or its value and may throw: `(Input) throws -> Output`.
    public typealias BFContinuationBlock<Input, Output> = (Input) throws -> Output
    /// The work of a task started with `execute`: `() throws -> Output`.
    public typealias BFExecutionBlock<Output> = () throws -> Output
    /// A block an executor runs or a cancellation token calls: `() -> Void`.
    public typealias BFBlock = () -> Void
#endif
