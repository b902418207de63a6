import Foundation
import PromiseKitStyle
import TestSupport
import Testing

@testable import PromiseKitStyleFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` promises and `validate()`, against ``LoopbackHTTPServer`` on 127.0.0.1. The time limit is the
/// project's hang guard: a request takes milliseconds alone, but a sanitizer's run of the whole suite keeps both cores
/// busy for minutes, and a fixed minute was not enough there.
@Suite("URLSession promises against a loopback server", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
final class URLSessionTests {
    /// A session of this test's own: cancelling its tasks touches no other test's.
    let session = URLSession(configuration: .ephemeral)

    deinit {
        // A session keeps itself alive until invalidated; each test's ends with the test.
        session.invalidateAndCancel()
    }

    @Test func dataTaskFulfilsWithTheBodyAndTheResponse() async throws {
        try await withLoopbackServer(["/hello": .status(200, body: binaryPayload)]) { server in
            let promise: Promise<(data: Data, response: URLResponse)> = session.dataTask(
                .promise, with: server.url("/hello"))
            let answer = try await promise.async()
            #expect(answer.data == binaryPayload)
            let response = try #require(answer.response as? HTTPURLResponse)
            #expect(response.statusCode == 200)
            #expect(response.url == server.url("/hello"))
            #expect(server.receivedPaths == ["/hello"])
        }
    }

    @Test func dataTaskTakesARequestAsItIs() async throws {
        try await withLoopbackServer(["/echo": .echo]) { server in
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"
            request.httpBody = binaryPayload
            let answer = try await session.dataTask(.promise, with: request).async()
            #expect(answer.data == binaryPayload)
        }
    }

    @Test func anErrorStatusFulfilsTheTaskAndValidateRejectsWithCodeAndBody() async throws {
        try await withLoopbackServer(["/missing": .status(404, body: Data("no such thing".utf8))]) { server in
            let task = session.dataTask(.promise, with: server.url("/missing"))
            // Without validate() an error status is an answer like any other.
            #expect(try await (task.async().response as? HTTPURLResponse)?.statusCode == 404)
            let error = try await #require(throws: PMKHTTPError.self) { try await task.validate(on: testQueue).async() }
            guard case .badStatusCode(let code, let body, let response) = error else { return }
            #expect(code == 404)
            #expect(body == Data("no such thing".utf8))
            #expect(response.url == server.url("/missing"))
            let url = server.url("/missing").absoluteString
            #expect(error.errorDescription == "Invalid HTTP response (404) for \(url).")
            #expect(error.failureReason == "no such thing")
            #expect(error.description.hasPrefix("<NSHTTPResponse> "))
            #expect(error.description.contains("no such thing"))
        }
    }

    @Test func validateDescribesA401AsUnauthorized() async throws {
        try await withLoopbackServer(["/secret": .status(401, body: Data(#"{"reason":"token"}"#.utf8))]) { server in
            let error = try await #require(throws: PMKHTTPError.self) {
                try await session.dataTask(.promise, with: server.url("/secret")).validate(on: testQueue).async()
            }
            #expect(error.errorDescription == "Unauthorized (\(server.url("/secret").absoluteString)")
            struct Reason: Decodable, Equatable { let reason: String }
            #expect(error.decodeResponse(Reason.self) == Reason(reason: "token"))
            #expect((error.jsonDictionary as? [String: String]) == ["reason": "token"])
        }
    }

    @Test func validatePassesA2xxStatusOn() async throws {
        try await withLoopbackServer(["/created": .status(201, body: Data("made".utf8))]) { server in
            let answer = try await session.dataTask(.promise, with: server.url("/created")).validate(on: testQueue)
                .async()
            #expect(answer.data == Data("made".utf8))
            #expect((answer.response as? HTTPURLResponse)?.statusCode == 201)
        }
    }

    /// The public `validate()` checks on `conf.Q.map`, as PromiseKit's does. Nothing serves the main queue in tests, so
    /// the check runs in a child process that points `conf.Q` at a queue of its own, where no other test sees it.
    @Test func publicValidatePassesA2xxAndRejectsA404OnConfQ() async {
        await #expect(processExitsWith: .success) {
            let queue = DispatchQueue(label: "PromiseKitStyleFoundationTests.confQ")
            conf.Q = (map: queue, return: queue)
            let routes: [String: Reply] = [
                "/created": .status(201, body: Data("made".utf8)), "/missing": .status(404, body: Data("gone".utf8)),
            ]
            try await withLoopbackServer(routes) { server in
                let session = URLSession(configuration: .ephemeral)
                defer { session.invalidateAndCancel() }
                let answer = try await session.dataTask(.promise, with: server.url("/created")).validate().async()
                precondition(answer.data == Data("made".utf8), "the 201's body passed on")
                do {
                    _ = try await session.dataTask(.promise, with: server.url("/missing")).validate().async()
                    preconditionFailure("a 404 passed validate()")
                } catch PMKHTTPError.badStatusCode(let code, let body, _) {
                    precondition(code == 404 && body == Data("gone".utf8), "the 404's code and body")
                }
            }
        }
    }

    @Test func connectionRefusedRejectsThroughValidate() async throws {
        let url = URL(string: "http://127.0.0.1:\(try refusingPort())/nobody")!
        // The public validate(): a rejection passes through `map` without a hop to any queue.
        let error = try await #require(throws: (any Error).self) {
            try await session.dataTask(.promise, with: url).validate().async()
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(!error.isCancelled)
    }

    @Test func aCancelledTaskRejectsWithAnErrorThatIsCancelled() async throws {
        try await withLoopbackServer(["/slow": .hold]) { server in
            let promise = session.dataTask(.promise, with: server.url("/slow"))
            // The server holds the request, so the task is still running when it is cancelled.
            await server.requestArrived()
            session.getAllTasks { tasks in
                for task in tasks { task.cancel() }
            }
            let error = try await #require(throws: (any Error).self) { try await promise.async() }
            #expect(error.isCancelled)
            #expect((error as? URLError)?.code == .cancelled)
            // So `catch` under the default policy skips it; `finally` runs after it would have.
            let caught = Locked(false)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                promise.catch(on: testQueue) { _ in caught.withLock { $0 = true } }.finally(on: testQueue) {
                    done.resume()
                }
            }
            #expect(caught.withLock { $0 } == false)
        }
    }

    @Test func downloadMovesTheFileToTheLocation() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("download.bin")
        try await withLoopbackServer(["/file": .status(200, body: binaryPayload)]) { server in
            let promise: Promise<(saveLocation: URL, response: URLResponse)> = session.downloadTask(
                .promise, with: server.url("/file"), to: destination)
            let answer = try await promise.async()
            #expect(answer.saveLocation == destination)
            #expect((answer.response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Data(contentsOf: destination) == binaryPayload)
        }
    }

    @Test func downloadRejectsWhenTheLocationIsTaken() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("taken.bin")
        try Data("already here".utf8).write(to: destination)
        try await withLoopbackServer(["/file": .status(200, body: binaryPayload)]) { server in
            await #expect(throws: (any Error).self) {
                try await session.downloadTask(.promise, with: server.url("/file"), to: destination).async()
            }
        }
        #expect(try Data(contentsOf: destination) == Data("already here".utf8))
    }

    @Test func uploadFromDataSendsTheData() async throws {
        try await withLoopbackServer(["/echo": .echo]) { server in
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"
            let answer = try await session.uploadTask(.promise, with: request, from: binaryPayload).async()
            #expect(answer.data == binaryPayload)
            #expect((answer.response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test func uploadFromFileSendsTheFilesContents() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        try binaryPayload.write(to: file)
        try await withLoopbackServer(["/echo": .echo]) { server in
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "PUT"
            let answer = try await session.uploadTask(.promise, with: request, fromFile: file).async()
            #expect(answer.data == binaryPayload)
            #expect(server.receivedPaths == ["/echo"])
        }
    }

    @Test func aURLIsAGETRequestForIt() {
        let url = URL(string: "http://127.0.0.1/x")!
        #expect(url.pmkRequest.url == url)
        #expect(url.pmkRequest.httpMethod == "GET")
        var request = URLRequest(url: url)
        request.httpMethod = "DELETE"
        #expect(request.pmkRequest == request)
    }
}
