// The coverage table's relations between steps (ProgramRelations): each is counted in a small program that has it,
// and not in one that does not.
import FlawedPromises
import Testing

@testable import PromiseConformance

@Suite struct ProgramRelationsTests {
    /// Each relation, a program that has it once, and one that lacks it.
    static let examples: [(relation: String, has: String, lacks: String)] = [
        (
            "two handlers on one pending promise",
            "p0 = pending; p1 = then p0 - _ _; p2 = then p0 q1 _ _; fulfil p0 v1",
            "p0 = pending; p1 = then p0 - _ _; fulfil p0 v1; p2 = then p0 q1 _ _"
        ),
        (
            "two pass-through chains off one promise, settled after them",
            "p0 = pending; p1 = then p0 - _ ( -> v1 ); p2 = then p1 - _ _; p3 = then p0 q1 ( -> v2 ) _; "
                + "p4 = then p3 - _ _; fulfil p0 v3",
            "p0 = pending; p1 = then p0 - _ ( -> v1 ); p2 = then p1 - _ _; p3 = then p0 q1 ( -> v2 ) _; "
                + "fulfil p0 v3; p4 = then p3 - _ _"
        ),
        (
            "adopts a promise still adopting another",
            "p0 = pending; p1 = fulfilled v1; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 q1 ( -> adopt p2 ) _; "
                + "fulfil p0 v2",
            "p0 = pending; p1 = fulfilled v1; p2 = then p1 - ( -> adopt p0 ) _; fulfil p0 v2; "
                + "p3 = then p1 q1 ( -> adopt p2 ) _"
        ),
        (
            "one promise adopted by two handlers",
            "p0 = pending; p1 = then p0 - ( -> adopt p0 ) _; p2 = then p0 - ( -> adopt p0 ) _",
            "p0 = pending; p1 = then p0 - ( -> adopt p0 ) _"
        ),
        (
            "one promise adopted by three handlers",
            "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p0 ) _; "
                + "p4 = then p1 - ( -> adopt p0 ) _",
            "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p0 ) _"
        ),
        (
            "a pending promise adopted by three handlers run before it settles",
            "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p0 ) _; "
                + "p4 = then p1 q1 ( -> adopt p0 ) _; fulfil p1 v1; fulfil p0 v2",
            "p0 = pending; p1 = pending; p2 = then p1 - ( -> adopt p0 ) _; p3 = then p1 - ( -> adopt p0 ) _; "
                + "p4 = then p1 q1 ( -> adopt p0 ) _; fulfil p0 v2; fulfil p1 v1"
        ),
        (
            "registers on the promise it handles, on a queue",
            "p0 = pending; p1 = then p0 - ( p2 = then p0 q1 _ _ -> v1 ) _",
            "p0 = pending; p1 = then p0 - ( p2 = then p0 - _ _ -> v1 ) _"
        ),
        (
            "registers on the promise it handles, no queue",
            "p0 = pending; p1 = then p0 q2 ( p2 = then p0 - _ _ -> v1 ) _",
            "p0 = pending; p1 = then p0 q2 ( p2 = then p0 q1 _ _ -> v1 ) _"
        ),
        (
            "registers on the promise it resolves",
            "p0 = pending; p1 = then p0 - ( p2 = then p1 q1 _ _ -> v1 ) _",
            "p0 = pending; p1 = then p0 - ( p2 = then p0 q1 _ _ -> v1 ) _"
        ),
        (
            "settles a promise that has handlers",
            "p0 = pending; p1 = pending; p2 = then p1 - _ _; p3 = then p0 - ( fulfil p1 v1 -> v2 ) _",
            "p0 = pending; p1 = pending; p3 = then p0 - ( fulfil p1 v1 -> v2 ) _; p2 = then p1 - _ _"
        ),
        (
            "combinator over inputs settled before it",
            "p0 = fulfilled v1; p1 = pending; p2 = race p0 p1",
            "p0 = pending; p1 = pending; p2 = race p0 p1; fulfil p0 v1"
        ),
        (
            "combinator over inputs settled after it",
            "p0 = pending; p1 = pending; p2 = race p0 p1; fulfil p0 v1",
            "p0 = pending; p1 = pending; fulfil p0 v1; p2 = race p0 p1"
        ),
        (
            "combinator over settled and pending inputs",
            "p0 = pending; p1 = pending; fulfil p0 v1; p2 = any p0 p1",
            "p0 = pending; p1 = pending; fulfil p0 v1; fulfil p1 v2; p2 = any p0 p1"
        ),
        (
            "combinator over inputs settled during its step",
            "p0 = pending; p1 = pending; p2 = then p0 - ( p3 = race p1 , fulfil p1 v1 -> v2 ) _; fulfil p0 v3",
            "p0 = pending; p1 = pending; p2 = then p0 - ( fulfil p1 v1 , p3 = race p1 -> adopt p1 ) _; fulfil p0 v3"
        ),
    ]

    /// The default run of an adapter with every capability meets each relation 100 times at least.
    @Test func theDefaultRunMeetsEachRelation() {
        let coverage = ProgramCoverage(capabilities: .everything, programs: GeneratedPrograms())
        for relation in ProgramRelations.kinds {
            #expect(coverage.relations[relation] ?? 0 >= 100, "\(relation): \(coverage.relations[relation] ?? 0)")
        }
    }

    static func relations(_ text: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        ProgramRelations.count(try Program(parsing: text), into: &counts)
        return counts
    }

    /// Every relation the table lists has an example here.
    @Test func everyRelationHasAnExample() {
        #expect(Self.examples.map(\.relation) == ProgramRelations.kinds)
    }

    @Test(arguments: examples.map(\.relation))
    func theRelationIsCountedWhereItIs(_ relation: String) throws {
        let example = try #require(Self.examples.first { $0.relation == relation })
        #expect(try Self.relations(example.has)[relation] == 1, "\(example.has)")
        #expect(try Self.relations(example.lacks)[relation] == nil, "\(example.lacks)")
    }

    /// The flaws whose trigger program has each relation.
    static var flawsByRelation: [String: [SubtleFlaw]] {
        var flaws: [String: [SubtleFlaw]] = [:]
        for flaw in SubtleFlaw.allCases {
            guard let program = try? Program(parsing: flaw.trigger) else { continue }
            var counts: [String: Int] = [:]
            ProgramRelations.count(program, into: &counts)
            for relation in counts.keys { flaws[relation, default: []].append(flaw) }
        }
        return flaws
    }

    /// Each relation is needed by two subtle flaws at least: their triggers have it (SubtleFlawTests shows each
    /// trigger wrong with its flaw only, GeneratedProgramsTests each flaw caught by the default run).
    @Test(arguments: ProgramRelations.kinds)
    func twoFlawsNeedTheRelation(_ relation: String) {
        let flaws = Self.flawsByRelation[relation] ?? []
        #expect(flaws.count >= 2, "\(relation): \(flaws.map(\.rawValue))")
    }
}
