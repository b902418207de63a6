import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FBLStyle

// The examples of the article "How observers and the global group work", verbatim, so that they keep compiling.

enum ParseError: Error, Equatable {
    case notANumber(String)
}

func parseNumber(_ text: String, on queue: DispatchQueue) -> Promise<Int> {
    Promise<Int>(on: queue) { fulfill, reject in
        if let number = Int(text) {
            fulfill(number)
        } else {
            reject(ParseError.notANumber(text))
        }
    }
}

func answer(on queue: DispatchQueue) -> Promise<Int> {
    parseNumber("20", on: queue)
        .then(on: queue) { $0 + 1 }
        .then(on: queue) { number in parseNumber("\(number * 2)", on: queue) }
        .catch(on: queue) { error in print("failed: \(error)") }
}

func sum(on queue: DispatchQueue) -> Promise<Int> {
    all(on: queue, [parseNumber("1", on: queue), parseNumber("2", on: queue), parseNumber("3", on: queue)])
        .then(on: queue) { numbers in numbers.reduce(0, +) }
}

func labelled(on queue: DispatchQueue) -> Promise<String> {
    all(on: queue, parseNumber("7", on: queue), Promise("days"))
        .then(on: queue) { number, unit in "\(number) \(unit)" }
}

func numberOrZero(_ text: String, on queue: DispatchQueue) -> Promise<Int> {
    parseNumber(text, on: queue).recover(on: queue) { _ in 0 }
}

// Under the trait CheckedHandlers this sample and `sumsTheNumbers` do not compile, as the article says: each block
// mutates a variable it captures, on `queue`.
#if !CheckedHandlers
    func firstNumber(of inputs: [String], on queue: DispatchQueue) -> Promise<Int> {
        var remaining = inputs[...]
        return retry(on: queue, attempts: inputs.count - 1, delay: 0.01) {
            parseNumber(remaining.popFirst() ?? "", on: queue)
        }
    }
#endif

extension FBLStyleTests {
    @Suite("Article samples") struct ArticleSampleTests {
        let queue = DispatchQueue(label: "work")

        @Test func asyncWorkWithFulfillAndReject() async throws {
            #expect(try await parseNumber("12", on: queue).valueAfterWaiting() == 12)
            #expect(await parseNumber("twelve", on: queue).errorAfterWaiting() as? ParseError == .notANumber("twelve"))
        }

        @Test func chaining() async throws {
            #expect(try await answer(on: queue).valueAfterWaiting() == 42)
        }

        @Test func waitingWithAll() async throws {
            #expect(try await sum(on: queue).valueAfterWaiting() == 6)
            #expect(try await labelled(on: queue).valueAfterWaiting() == "7 days")
        }

        @Test func recovering() async throws {
            #expect(try await numberOrZero("x", on: queue).valueAfterWaiting() == 0)
            #expect(try await numberOrZero("5", on: queue).valueAfterWaiting() == 5)
        }

        #if !CheckedHandlers
            @Test func retrying() async throws {
                #expect(try await firstNumber(of: ["a", "b", "3", "4"], on: queue).valueAfterWaiting() == 3)
                let none = firstNumber(of: ["a", "b"], on: queue)
                #expect(await none.errorAfterWaiting() as? ParseError == .notANumber("b"))
            }

            @Test(.offThePool) func sumsTheNumbers() {
                let queue = DispatchQueue(label: "work")
                var total = 0
                sum(on: queue).then(on: queue) { total = $0 }
                // The article waits 10 s. Here other test targets' FBLStyle work shares the process-wide group (and
                // the thread sanitizer slows all of it), so the wait gets the suite's scaled patience.
                #expect(waitForPromises(timeout: patience))
                #expect(total == 6)
            }
        #endif
    }
}
