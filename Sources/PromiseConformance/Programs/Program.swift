// Program.swift: a generated program as data, and its text form.
//
// A program is a list of steps over the adapter's vocabulary: make a promise (pending, settled, a thenable, a `then`
// of another promise, a combinator of others), settle one, cancel one. A handler of a `then` is a reaction: steps it
// runs before it returns (registering a `then` on another promise, settling another promise), and what it returns.
// Promises are named `p0`, `p1`, … in the order the program's text makes them, values `v1`, `v2`, … and errors
// `e1`, `e2`, …; the text form reads as the steps do and parses back (`Program(parsing:)`), so a failure can be pasted
// into `promise-conformance --program '…'`.

/// A program over a ``PromiseAdapter``: the input of the suite's generated clauses (`generated.*`).
///
/// Its ``description`` is one line a person can read and paste back into ``init(parsing:)`` or
/// `promise-conformance --program`, for example:
///
/// ```
/// p0 = pending; p1 = then p0 q1 ( fulfil p2 v3 -> adopt p0 ) _; p2 = pending; fulfil p0 v1
/// ```
public struct Program: Hashable, Sendable, CustomStringConvertible {
    /// The steps, in the order the driver performs them.
    var steps: [Step]

    init(_ steps: [Step]) {
        self.steps = steps
    }

    /// One thing the program does.
    enum Step: Hashable, Sendable {
        /// `pN = …`: makes promise `N`.
        case make(Int, Make)
        /// `fulfil pN vK`: calls the fulfil function of pending (or cancellable) promise `N` with value `K`.
        case fulfil(Int, Int)
        /// `reject pN eK`: calls the reject function of pending promise `N` with error `K`.
        case reject(Int, Int)
        /// `cancel pN`: calls the cancel function of cancellable promise `N`.
        case cancel(Int)
    }

    /// How a promise is made.
    enum Make: Hashable, Sendable {
        /// `pending`: the adapter's `pending()`.
        case pending
        /// `cancellable`: the adapter's `cancellablePending()`.
        case cancellable
        /// `fulfilled vK`.
        case fulfilled(Int)
        /// `rejected eK`.
        case rejected(Int)
        /// `thenable …`: the adapter's `assimilated(_:)` of a generated thenable.
        case thenable(ThenableSpec)
        /// `then pS QUEUE ONFULFILLED ONREJECTED`: the handlers run on serial queue `q1`/`q2`, or on the
        /// implementation's default (`-`); a handler `_` is none (the value or reason passes on).
        case then(source: Int, queue: Int?, onFulfilled: Reaction?, onRejected: Reaction?)
        /// `all pA pB …`: the adapter's `all(_:completion:)`; the node is its completion, not a promise.
        case all([Int])
        /// `race pA pB …`.
        case race([Int])
        /// `any pA pB …`.
        case any([Int])
    }

    /// A thenable the program builds: `depth` thenables, each resolving with the next, the last one settling as
    /// `ending` says.
    struct ThenableSpec: Hashable, Sendable {
        var depth: Int
        /// Fulfils with `vK` (`.fulfil(K)`) or rejects with `eK` (`.reject(K)`).
        var ending: Ending
        /// Each `then` calls back from another thread, later, instead of inside the call.
        var async: Bool
        /// After calling back, each `then` also calls the other callback and the same one again, and throws: all of
        /// which the promise must ignore (A+ 2.3.3.3.3, 2.3.3.3.4.1).
        var noisy: Bool
    }

    /// How a thenable's last level, or a settlement, ends.
    enum Ending: Hashable, Sendable {
        case fulfil(Int)
        case reject(Int)
    }

    /// A handler: the steps it runs, then what it returns.
    struct Reaction: Hashable, Sendable {
        /// Steps the handler runs before it returns: `then` on another promise, a settlement of another one.
        var effects: [Step]
        var result: Return
    }

    /// What a handler returns (or throws).
    enum Return: Hashable, Sendable {
        /// `vK`: returns a value.
        case value(Int)
        /// `throw eK`.
        case throwing(Int)
        /// `adopt pN`: returns promise `N` of the program.
        case adopt(Int)
        /// `adopt self`: returns the promise its own `then` returned (A+ 2.3.1).
        case adoptSelf
        /// `thenable …`: returns a generated thenable.
        case thenable(ThenableSpec)
    }

    /// Every promise the program makes, with the step that makes it, in the order of the text (nested ones included).
    var makes: [(node: Int, make: Make)] {
        var found: [(Int, Make)] = []
        func visit(_ steps: [Step]) {
            for step in steps {
                guard case .make(let node, let make) = step else { continue }
                found.append((node, make))
                if case .then(_, _, let onFulfilled, let onRejected) = make {
                    visit(onFulfilled?.effects ?? [])
                    visit(onRejected?.effects ?? [])
                }
            }
        }
        visit(steps)
        return found
    }

    /// The number of steps, nested ones included: what the shrinker makes small.
    var size: Int {
        func count(_ steps: [Step]) -> Int {
            steps.reduce(0) { sum, step in
                guard case .make(_, .then(_, _, let onFulfilled, let onRejected)) = step else { return sum + 1 }
                return sum + 1 + count(onFulfilled?.effects ?? []) + count(onRejected?.effects ?? [])
            }
        }
        return count(steps)
    }

    /// The program as one line: its steps separated by `; `.
    public var description: String {
        steps.map(\.description).joined(separator: "; ")
    }

    /// The program, one step a line, nested steps inline.
    var lines: [String] { steps.map(\.description) }
}

extension Program.Step: CustomStringConvertible {
    var description: String {
        switch self {
        case .make(let node, let make): "p\(node) = \(make)"
        case .fulfil(let node, let value): "fulfil p\(node) v\(value)"
        case .reject(let node, let error): "reject p\(node) e\(error)"
        case .cancel(let node): "cancel p\(node)"
        }
    }
}

extension Program.Make: CustomStringConvertible {
    var description: String {
        func list(_ name: String, _ inputs: [Int]) -> String {
            ([name] + inputs.map { "p\($0)" }).joined(separator: " ")
        }
        switch self {
        case .pending: return "pending"
        case .cancellable: return "cancellable"
        case .fulfilled(let value): return "fulfilled v\(value)"
        case .rejected(let error): return "rejected e\(error)"
        case .thenable(let spec): return spec.description
        case .then(let source, let queue, let onFulfilled, let onRejected):
            let queueName = queue.map { "q\($0)" } ?? "-"
            return "then p\(source) \(queueName) \(onFulfilled?.description ?? "_") \(onRejected?.description ?? "_")"
        case .all(let inputs): return list("all", inputs)
        case .race(let inputs): return list("race", inputs)
        case .any(let inputs): return list("any", inputs)
        }
    }
}

extension Program.ThenableSpec: CustomStringConvertible {
    var description: String {
        (["thenable", "\(depth)"] + (async ? ["async"] : []) + (noisy ? ["noisy"] : []) + [ending.description])
            .joined(separator: " ")
    }
}

extension Program.Ending: CustomStringConvertible {
    var description: String {
        switch self {
        case .fulfil(let value): "v\(value)"
        case .reject(let error): "e\(error)"
        }
    }
}

extension Program.Reaction: CustomStringConvertible {
    var description: String {
        (["("] + (effects.isEmpty ? [] : [effects.map(\.description).joined(separator: " , ")]) + [
            "->", "\(result)", ")",
        ])
        .joined(separator: " ")
    }
}

extension Program.Return: CustomStringConvertible {
    var description: String {
        switch self {
        case .value(let value): "v\(value)"
        case .throwing(let error): "throw e\(error)"
        case .adopt(let node): "adopt p\(node)"
        case .adoptSelf: "adopt self"
        case .thenable(let spec): spec.description
        }
    }
}
