// Barriered.swift: a value guarded by a barrier of its own, the bookkeeping of `when`, `race` and `conf`.

/// A value guarded by its own barrier: reads under `sync`, writes under `sync(flags: .barrier)`, as in a box.
final class Barriered<Value>: @unchecked Sendable {
    private let barrier = Barrier()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads under `sync`.
    func read<V>(_ body: (Value) -> V) -> V { barrier.sync { body(value) } }

    /// Writes under `sync(flags: .barrier)`.
    func write<V>(_ body: (inout Value) -> V) -> V { barrier.sync(flags: .barrier) { body(&value) } }
}
