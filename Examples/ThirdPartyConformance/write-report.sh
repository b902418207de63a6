#!/usr/bin/env bash
# Runs the conformance suite over swift-nio's EventLoopFuture and OpenCombine's Future, beside the package's three
# styles, and writes docs/third-party-conformance.md: the matrix, with every deviation's explanation (the reasons the
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
{
    cat <<HEADER
# The conformance suite over real promise libraries

Written by \`Examples/ThirdPartyConformance/write-report.sh\` (do not edit by hand): the matrix of
[swift-nio](https://github.com/apple/swift-nio)'s \`EventLoopFuture\` ($(version swift-nio)) and
[OpenCombine](https://github.com/OpenCombine/OpenCombine)'s \`Future\` ($(version OpenCombine)) beside the package's
three styles, from a debug build. The adapters are in \`Examples/ThirdPartyConformance/Sources/ThirdPartyAdapters\`,
written as each library's documentation recommends (\`flatMap\` for NIO, a \`Subscribers.Sink\` for Combine). How to
read a cell: \`promise-conformance --help\`, or the DocC article "Testing your own promise".

Neither library can assimilate a foreign thenable, so both adapters use the suite's \`Assimilation\` helper, and
their 2.3.3 verdicts are the helper's (\`(helper)\`). Every deviation below was observed before it was declared; its
reason cites the library's source (file paths are relative to the library's repository at the version above), and
the suite checks on every run that it still shows.

HEADER
    cat "$matrix"
} >"$out"
echo "wrote $(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
