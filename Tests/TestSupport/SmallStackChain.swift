import Foundation
import Testing

/// When the root of a long chain settles.
public enum ChainTiming: String, CaseIterable, Sendable {
    case beforeTheChainIsBuilt, afterTheChainIsBuilt
    /// Never: the pending chain is dropped, and must be freed.
    case never
}

/// One long chain of a style's matrix: the kind of its links, how its root settles, when, and where the handlers run.
public struct ChainCombination<
    Link: Sendable & RawRepresentable, Root: Sendable & RawRepresentable, Place: Sendable & RawRepresentable
>: Sendable, CustomTestStringConvertible
where Link.RawValue == String, Root.RawValue == String, Place.RawValue == String {
    /// The kind of every link.
    public let link: Link
    /// How the root settles.
    public let root: Root
    /// When the root settles.
    public let timing: ChainTiming
    /// Where the handlers run: an executor or a queue.
    public let place: Place

    /// The combination in words, for the test's name.
    public var testDescription: String {
        "\(link.rawValue), \(root.rawValue) root, \(timing.rawValue), \(place.rawValue)"
    }

    /// Every link with every place: once never settled (with `roots(link)`'s first root, which a dropped chain never
    /// reaches), and with each of `roots(link)` settled before and after the chain is built; less those `keep` turns
    /// down.
    public static func all(
        links: [Link], places: [Place], roots: (Link) -> [Root], keep: (Self) -> Bool = { _ in true }
    ) -> [Self] {
        links.flatMap { link in
            places.flatMap { place in
                let roots = roots(link)
                let dropped = Self(link: link, root: roots[0], timing: .never, place: place)
                let settled = roots.flatMap { root in
                    [ChainTiming.beforeTheChainIsBuilt, .afterTheChainIsBuilt].map {
                        Self(link: link, root: root, timing: $0, place: place)
                    }
                }
                return [dropped] + settled
            }
        }.filter(keep)
    }
}

/// Builds and runs one long chain on the calling thread (a ``SmallStackThread``, in the tests that use it).
public enum SmallStackChain {
    /// What a dropped chain shows once freed.
    public static let freed = "freed"

    /// Makes a root with `makeRoot`, `length` links on it with `link`, settles the root at `timing` (or never), and
    /// returns what `read` says of the last link once it has settled, or ``freed`` (or "still alive") for a dropped
    /// chain, checked through a weak reference after every strong one is gone.
    public static func run<Promise: AnyObject>(
        _ timing: ChainTiming, length: Int, root makeRoot: () -> (promise: Promise, settle: () -> Void),
        link: (Promise) -> Promise, read: (Promise) -> String
    ) -> String {
        weak var weakTail: Promise?
        let end: String = {
            let (root, settle) = makeRoot()
            if timing == .beforeTheChainIsBuilt { settle() }
            var tail = root
            for _ in 0..<length { tail = link(tail) }
            weakTail = tail
            switch timing {
            case .never: return ""
            case .afterTheChainIsBuilt: settle()
            case .beforeTheChainIsBuilt: break
            }
            return read(tail)
        }()
        if timing == .never { return weakTail == nil ? freed : "still alive" }
        return end
    }
}
