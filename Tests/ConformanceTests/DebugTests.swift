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
