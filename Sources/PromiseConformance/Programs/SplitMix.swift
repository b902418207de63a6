// SplitMix.swift: the source of randomness of every program generator (the suite's and the differential
// harness's), seeded so that a program is a function of its seed.

/// SplitMix64: a small, fast, seedable generator whose sequence is the same on every platform and toolchain (the
/// standard library's generator is neither seedable nor promised to stay the same).
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`, with no dependence on the standard library's range sampling (which may change).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }

    /// True with probability `percent` in 100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One element of `choices`, which must not be empty.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// `count` elements of `pool` in random order (all of them if it holds fewer).
    public mutating func pick<T>(_ count: Int, from pool: [T]) -> [T] {
        var pool = pool
        var picked: [T] = []
        while picked.count < count && !pool.isEmpty { picked.append(pool.remove(at: below(pool.count))) }
        return picked
    }
}
