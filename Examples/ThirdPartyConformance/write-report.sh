#!/usr/bin/env bash
# Runs the conformance suite over swift-nio's EventLoopFuture, OpenCombine's Future and Swift's own Task, beside the
# package's three styles, and writes docs/third-party-conformance.md: the matrix, with every deviation's explanation (the reasons the
# adapters declare, citing each library's source) and what the suite observed. Exits non-zero, writing nothing, when a
# clause fails that no adapter declares: declare a deviation only after the suite has observed it.
#   bash Examples/ThirdPartyConformance/write-report.sh
set -euo pipefail
cd "$(dirname "$0")"
out=../../docs/third-party-conformance.md
swift build --product third-party-conformance
matrix=$(mktemp)
trap 'rm -f "$matrix"' EXIT
swift run --skip-build third-party-conformance --format markdown >"$matrix"
version() { swift package show-dependencies 2>/dev/null | grep -o "$1@[0-9.]*" | head -1 | cut -d@ -f2; }
swift_version() { swift --version 2>&1 | grep -o 'Swift version [0-9.]*' | head -1 | cut -d' ' -f3; }
{
    cat <<HEADER
# The conformance suite over real promise libraries

Written by \`Examples/ThirdPartyConformance/write-report.sh\` (do not edit by hand): the matrix of
[swift-nio](https://github.com/apple/swift-nio)'s \`EventLoopFuture\` ($(version swift-nio)),
[OpenCombine](https://github.com/OpenCombine/OpenCombine)'s \`Future\` ($(version OpenCombine)) and Swift's own
\`Task\` (Swift $(swift_version)) beside the package's three styles, from a debug build. The adapters are in
\`Examples/ThirdPartyConformance/Sources/ThirdPartyAdapters\`, written as each library's documentation recommends
(\`flatMap\` for NIO, a \`Subscribers.Sink\` for Combine, \`Task { }\` and \`await\` for Swift). How to read a cell:
\`promise-conformance --help\`, or the DocC article "Testing your own promise".

None of the three can assimilate a foreign thenable, so their adapters use the suite's \`Assimilation\` helper, and
their 2.3.3 verdicts are the helper's (\`(helper)\`). Every deviation below was observed before it was declared; its
reason cites the library's source (file paths are relative to the library's repository at the version above; for
\`Task\`, to [the Swift repository](https://github.com/swiftlang/swift)), and the suite checks on every run that it
still shows.

## Swift's \`Task\`, a future with no \`then\`

\`Task\` is the future the language ships: created with \`Task { }\`, awaited with \`value\` (or \`result\`), cancelled
with \`cancel()\`. It has no \`then\` and no way to settle it from outside, so its adapter (\`SwiftTaskAdapter.swift\`)
builds both: a pending promise is a task whose body awaits a continuation, which the suite's fulfil and reject resume
(a small gate keeps an outcome that arrives before the body has started), and \`then\` is a new task that awaits the
upstream task's \`result\` and runs the handler, on the queue asked for through one more continuation. What follows
from that, in the matrix below:

- **Always asynchronous (2.2.4 passes).** A \`Task { }\` body never runs inside the call that creates it.
- **No registration order (2.2.6.1, 2.2.6.2, \`swift.concurrentRegistration\`).** Handlers are not a list on the
  upstream task: each is a task awaiting it, and Swift promises no order among the waiters of one task. The runtime
  resumes the last waiter first, on the concurrent pool.
- **No cycle detection (2.3.1).** A task awaiting its own value waits forever.
- **A pending task is never freed (\`swift.release\`, \`swift.deepChain\`).** A task holds itself until it completes,
  so a task suspended on a continuation that is never resumed, and every task awaiting it, stays alive with its
  closure, whoever still refers to it.
- **\`all\` is a task group (\`swift.combinator.all\`).** A group returns only once every child has finished, and a
  child awaiting another task's value does not stop when cancelled: the first rejection is reported only when every
  input has settled. Swift has no \`race\` or \`any\` for tasks (\`n/a\`).
- **Cancellation passes**, with the adapter's help: \`cancel()\` only sets a flag the task's code may look at later,
  so the adapter also settles the gate with \`CancellationError\`, the error Swift's cancellation throws; tasks
  awaiting a cancelled one receive it.

## The matrix

HEADER
    cat "$matrix"
} >"$out"
echo "wrote $(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
