// The cost floor of B5, B6 and B8's independent chains: allocate one object holding one closure, call the closure.

/// The floor's object: one allocation holding one closure.
public final class FloorObject {
    /// The closure `callStored(_:_:)` calls.
    public var closure: ((Int) -> Void)?
    /// A second object kept alive by the first (only "B5 floor with two objects" sets it).
    public var next: FloorObject?

    /// An object holding no closure yet.
    public init() {}
}

/// Allocates the floor object and stores `closure` in it (not inlined, so the allocation cannot be optimized away).
@inline(never)
public func makeFloorObject(_ closure: @escaping (Int) -> Void) -> FloorObject {
    let object = FloorObject()
    object.closure = closure
    return object
}

/// Calls the stored closure (not inlined, so the call stays an indirect call).
@inline(never)
public func callStored(_ object: FloorObject, _ value: Int) {
    object.closure?(value)
}
