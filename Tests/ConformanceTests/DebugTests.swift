import Foundation
import PromiseConformance
import Testing

@Test func debugRun() async {
    guard let prefix = ProcessInfo.processInfo.environment["DEBUG_CLAUSE"] else { return }
    for clause in Clause.matching(prefix: prefix) {
        print("running", clause.id)
        let result = await Conformance.run(ReferenceAdapter(), clause: clause)
        print(result, result.duration)
    }
}

@Test func debugFlawed() async {
    guard let name = ProcessInfo.processInfo.environment["DEBUG_FLAW"] else { return }
    for flaw in Flaw.allCases where name.isEmpty || flaw.rawValue == name {
        let report = await Conformance.run(FlawedAdapter(flaw: flaw))
        print(report)
        print("FAILED:", report.failures.map(\.clause.id))
    }
}
