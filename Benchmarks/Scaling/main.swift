// B8: how each style scales with the number of threads, in three shapes (independent chains, one shared concurrent
// queue, one contended promise), against plain GCD and a floor. A plain executable, without the benchmark plugin, so
// that a statically linked build runs on a machine with no Swift toolchain (see Benchmarks/README.md).
//
// Usage: scaling [--threads 1,2,4,8,16] [--rounds 7] [--shape ID]... > b8.json

import Foundation

var threadCounts = [1, 2, 4, 8, 16]
var rounds = 7
var chosen: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--threads":
        threadCounts = arguments.popFirst().map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
    case "--rounds": rounds = arguments.popFirst().flatMap(Int.init) ?? 0
    case "--shape": chosen += arguments.popFirst().map { [$0] } ?? []
    default:
        let usage = "usage: scaling [--threads 1,2,4,8,16] [--rounds 7] [--shape ID]...\n"
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
}
precondition(!threadCounts.isEmpty && threadCounts.allSatisfy { $0 > 0 } && rounds > 0, "bad arguments")

var results: [Report.ShapeResult] = []
for shape in shapes where chosen.isEmpty || chosen.contains(shape.id) {
    var points: [Report.Point] = []
    for threads in threadCounts {
        FileHandle.standardError.write(Data("B8 \(shape.id), \(threads) threads\n".utf8))
        for contender in shape.contenders { _ = contender.measure(threads) }  // warm-up
        // One time per contender per round; the order rotates from round to round.
        var times = [[UInt64]](repeating: [], count: shape.contenders.count)
        for round in 0..<rounds {
            for offset in 0..<shape.contenders.count {
                let index = (round + offset) % shape.contenders.count
                times[index].append(shape.contenders[index].measure(threads))
            }
        }
        func pairedRatio(_ index: Int, to name: String) -> Double? {
            guard let base = shape.contenders.firstIndex(where: { $0.name == name }) else { return nil }
            return median((0..<rounds).map { Double(times[index][$0]) / Double(times[base][$0]) })
        }
        points.append(
            Report.Point(
                threads: threads,
                contenders: shape.contenders.indices.map { index in
                    let time = median(times[index])
                    return Report.Measured(
                        name: shape.contenders[index].name, medianNanoseconds: time,
                        throughput: Double(shape.operations) / (Double(time) / 1e9),
                        ratioToFloor: pairedRatio(index, to: floor), ratioToGCD: pairedRatio(index, to: gcd))
                }))
    }
    results.append(
        Report.ShapeResult(
            id: shape.id, summary: shape.summary, operations: shape.operations, operation: shape.operation,
            points: points))
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let report = Report(
    machine: .current, command: CommandLine.arguments.joined(separator: " "), rounds: rounds, shapes: results)
FileHandle.standardOutput.write(try encoder.encode(report))
FileHandle.standardOutput.write(Data("\n".utf8))
