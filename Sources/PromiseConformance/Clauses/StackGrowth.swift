/// How deep a chain's settlement (or its release) took the stack of the thread that started it, measured at a few
/// links along the chain, and whether it grew once per link.
///
/// The deep-chain clauses record the address of a local in a handler of link `n` (or in the `deinit` of an object
/// link `n`'s handler held), on the ``DeepStackThread`` that settled (or dropped) the chain, and subtract it from the
/// address taken at the settling (or dropping) call. A library that settles or frees a chain iteratively, or through a
/// trampoline of bounded depth, shows about the same depth at every link; one that recurses shows a depth that grows
/// with `n`. Deterministic: no crash, no timing.
struct StackGrowth: Sendable {
    /// (link, depth in bytes below the settling call), for each link measured on the thread of that call.
    private(set) var depths: [(link: Int, bytes: Int)] = []

    /// The least growth that counts as recursion, in bytes per link: less than the frames of one nested call.
    static let bytesPerLinkThreshold = 64
    /// The least growth between the first and the last link measured that counts as recursion, in bytes: more than a
    /// trampoline of bounded depth uses.
    static let totalThreshold = 64 << 10
    /// The stack of a Dispatch worker thread on Linux, and of a secondary thread on Apple platforms: what the report
    /// says a recursive chain overflows first.
    static let smallStack = 512 << 10

    /// Records that link `link` was reached `bytes` below the settling call.
    mutating func record(link: Int, bytes: Int) {
        depths.append((link, bytes))
    }

    /// The recursion measured, as the report says it ("recursion per link: the stack grew 412 bytes per link (0.4 MiB
    /// at 1,000 links, 1.6 MiB at 4,000): a 512 KiB thread overflows at about 1,270 links"), or nil when the depth
    /// stayed flat. From the first and the last link measured, or from the settling call (depth 0 at link 0) when only
    /// one was.
    var recursion: String? {
        let sorted = depths.sorted { $0.link < $1.link }
        guard let last = sorted.last else { return nil }
        let first = sorted.count > 1 ? sorted[0] : (link: 0, bytes: 0)
        let grown = abs(last.bytes - first.bytes)
        let links = last.link - first.link
        guard links > 0, grown >= Self.totalThreshold, grown / links >= Self.bytesPerLinkThreshold else { return nil }
        let perLink = grown / links
        let shown = [first, last].filter { $0.link > 0 }.map {
            "\(Self.mebibytes($0.bytes)) MiB at \(Self.grouped($0.link)) links"
        }
        return "recursion per link: the stack grew \(perLink) bytes per link (\(shown.joined(separator: ", "))):"
            + " a 512 KiB thread overflows at about \(Self.grouped(Self.smallStack / perLink)) links"
    }

    /// `bytes` in MiB with one decimal.
    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `count` with a comma between thousands, as the report writes lengths: 1,000.
    static func grouped(_ count: Int) -> String {
        count < 1000 ? "\(count)" : grouped(count / 1000) + "," + String(String(count % 1000 + 1000).dropFirst())
    }
}
