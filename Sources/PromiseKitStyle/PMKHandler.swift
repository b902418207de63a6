// PMKHandler.swift: the types of the closures PromiseKitStyle runs later or on another queue, and of the completion
// handlers `wrap` hands out.
//
// Without the trait CheckedHandlers (the default) each is the plain closure type PromiseKit's own signatures spell
// out, so the API is PromiseKit's. With it, each is `@Sendable`: a handler that touches main-actor state or captures a
// mutable variable does not compile unless it is made safe to run on another thread (docs/guide.md, "Swift 6 with
// checked handlers"). The aliases exist so that one declaration of each method serves both builds.

#if CheckedHandlers
    /// A handler that takes a value and may throw: `@Sendable (Input) throws -> Output` under CheckedHandlers.
    public typealias PMKHandler<Input, Output> = @Sendable (Input) throws -> Output
    /// A handler that takes a value and cannot throw: `@Sendable (Input) -> Output` under CheckedHandlers.
    public typealias PMKGuaranteedHandler<Input, Output> = @Sendable (Input) -> Output
    /// A handler that takes no value and may throw: `@Sendable () throws -> Output` under CheckedHandlers.
    public typealias PMKThrowingThunk<Output> = @Sendable () throws -> Output
    /// A handler that takes no value and cannot throw: `@Sendable () -> Output` under CheckedHandlers.
    public typealias PMKThunk<Output> = @Sendable () -> Output
    /// An ordering of two elements, for `sortedValues`: `@Sendable (Element, Element) -> Bool` under CheckedHandlers.
    public typealias PMKOrdering<Element> = @Sendable (Element, Element) -> Bool
    /// A two-argument completion handler `wrap` passes to the wrapped call: `@Sendable (First, Second) -> Void` under
    /// CheckedHandlers.
    public typealias PMKCompletion<First, Second> = @Sendable (First, Second) -> Void
#else
    /// A handler that takes a value and may throw: `(Input) throws -> Output`.
    public typealias PMKHandler<Input, Output> = (Input) throws -> Output
    /// A handler that takes a value and cannot throw: `(Input) -> Output`.
    public typealias PMKGuaranteedHandler<Input, Output> = (Input) -> Output
    /// A handler that takes no value and may throw: `() throws -> Output`.
    public typealias PMKThrowingThunk<Output> = () throws -> Output
    /// A handler that takes no value and cannot throw: `() -> Output`.
    public typealias PMKThunk<Output> = () -> Output
    /// An ordering of two elements, for `sortedValues`: `(Element, Element) -> Bool`.
    public typealias PMKOrdering<Element> = (Element, Element) -> Bool
    /// A two-argument completion handler `wrap` passes to the wrapped call: `(First, Second) -> Void`.
    public typealias PMKCompletion<First, Second> = (First, Second) -> Void
#endif
