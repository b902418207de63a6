import BoltsStyle
import Dispatch
import FBLStyle
import Foundation
import PromiseBridge
import PromiseKitStyle
import TestSupport
import Testing

// Every sample of the DocC catalog, as written there (the catalog's `queue` is `sampleQueue`).

struct User: Equatable, Sendable {
    let id: Int
    let name: String
}

struct Avatar: Equatable, Sendable {
    let pixels: [UInt8]
}

struct Profile: Equatable, Sendable {
    let user: User
    let avatar: Avatar
}

enum SampleError: Error {
    case notFound
}

let sampleQueue = DispatchQueue(label: "PromiseBridgeTests.samples")

/// A fetch written in PromiseKitStyle, settled later on another thread.
func fetchUser(_ id: Int) -> PromiseKitStyle.Promise<User> {
    PromiseKitStyle.Promise { seal in
        DispatchQueue.global().async {
            id > 0 ? seal.fulfill(User(id: id, name: "user\(id)")) : seal.reject(SampleError.notFound)
        }
    }
}

/// A fetch written in BoltsStyle, settled later on another thread.
func fetchAvatar(_ id: Int) -> BFTask<Avatar> {
    let source = BFTaskCompletionSource<Avatar>()
    DispatchQueue.global().async { source.set(result: Avatar(pixels: [UInt8(id), 0, 0])) }
    return source.task
}

/// A fetch written in FBLStyle, settled later on another thread.
func fetchFriends(_ id: Int) -> FBLStyle.Promise<[Int]> {
    FBLStyle.Promise(on: .global()) { fulfill, _ in fulfill([id + 1, id + 2]) }
}

/// An `async` API.
func loadUser(_ id: Int) async throws -> User {
    await Task.yield()
    return User(id: id, name: "user\(id)")
}

@Suite("Article samples", timeLimit(minutes: TestEnvironment.hangGuardMinutes))
struct ArticleSampleTests {
    let queue = sampleQueue

    // MARK: The seed scenario across styles

    @Test func seedScenarioWithAsyncAwait() async throws {
        // Two fetches started in different styles...
        let user = fetchUser(1)  // PromiseKitStyle.Promise<User>
        let avatar = fetchAvatar(1)  // BFTask<Avatar>
        // ...awaited together...
        async let fetchedUser = user.async()
        async let fetchedAvatar = avatar.async()
        // ...then one step that needs both results.
        let profile = Profile(user: try await fetchedUser, avatar: try await fetchedAvatar)
        #expect(profile == Profile(user: User(id: 1, name: "user1"), avatar: Avatar(pixels: [1, 0, 0])))
    }

    @Test func seedScenarioInPromiseKitStyle() async throws {
        let profile = when(fulfilled: fetchUser(2), fetchAvatar(2).asPMKPromise())
            .map(on: queue) { user, avatar in Profile(user: user, avatar: avatar) }
        #expect(try await profile.async().avatar == Avatar(pixels: [2, 0, 0]))
    }

    @Test func seedScenarioInFBLStyle() async throws {
        let profile = all(on: queue, fetchUser(3).asFBLPromise(), fetchAvatar(3).asFBLPromise())
            .then(on: queue) { user, avatar in Profile(user: user, avatar: avatar) }
        #expect(try await profile.async().user.id == 3)
    }

    @Test func seedScenarioInBoltsStyle() async throws {
        let user = fetchUser(4).asBFTask()
        let avatar = fetchAvatar(4)
        let profile = user.continueOnSuccessWithTask { user in
            avatar.continueOnSuccessWith(.queue(queue)) { avatar in Profile(user: user, avatar: avatar) }
        }
        #expect(try await profile.async().user.name == "user4")
    }

    @Test func seedScenarioFailureCrossesAsTheSameError() async {
        async let fetchedUser = fetchUser(0).async()
        async let fetchedAvatar = fetchAvatar(0).async()
        do {
            _ = Profile(user: try await fetchedUser, avatar: try await fetchedAvatar)
            Issue.record("no error")
        } catch {
            #expect(error as? SampleError == .notFound)
        }
    }

    // MARK: One sample per direction

    @Test func boltsToPromiseKit() async throws {
        let names = fetchAvatar(5).asPMKPromise()
            .map(on: queue) { avatar in avatar.pixels.count }
        #expect(try await names.async() == 3)
    }

    @Test func boltsToFBL() async throws {
        let size = fetchAvatar(6).asFBLPromise()
            .then(on: queue) { avatar in avatar.pixels.count }
        #expect(try await size.async() == 3)
    }

    @Test func promiseKitToBolts() async throws {
        let name = fetchUser(7).asBFTask()
            .continueOnSuccessWith(.queue(queue)) { user in user.name }
        #expect(try await name.async() == "user7")
    }

    @Test func promiseKitToFBL() async throws {
        let name = fetchUser(8).asFBLPromise()
            .then(on: queue) { user in user.name }
        #expect(try await name.async() == "user8")
    }

    @Test func guaranteeToAnyStyle() async throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let task = guarantee.asBFTask()
        let promise = guarantee.asPMKPromise()
        let fbl = guarantee.asFBLPromise()
        resolve(9)
        #expect(try await task.async() == 9)
        #expect(try await promise.async() == 9)
        #expect(try await fbl.async() == 9)
    }

    @Test func fblToBolts() async throws {
        let count = fetchFriends(10).asBFTask()
            .continueOnSuccessWith(.queue(queue)) { friends in friends.count }
        #expect(try await count.async() == 2)
    }

    @Test func fblToPromiseKit() async throws {
        let first = fetchFriends(11).asPMKPromise()
            .map(on: queue) { friends in friends[0] }
        #expect(try await first.async() == 12)
    }

    @Test func cancellationCrossesAsEachStylesOwn() {
        let cancelled = BFTask<Int>.cancelledTask()
        guard case .rejected(PMKError.cancelled)? = cancelled.asPMKPromise().result else {
            Issue.record("expected PMKError.cancelled")
            return
        }
        #expect(cancelled.asFBLPromise().error is CancellationError)
        #expect(FBLStyle.Promise<Int>(CancellationError()).asBFTask().cancelled)
    }

    // MARK: Swift concurrency

    @Test func awaitingAnyStyle() async throws {
        let user = try await fetchUser(12).async()
        let avatar = try await fetchAvatar(12).async()
        let friends = try await fetchFriends(12).async()
        #expect(user.id == 12 && avatar.pixels[0] == 12 && friends == [13, 14])
    }

    @Test func creatingFromAnAsyncClosure() async throws {
        let task = BFTask<User> { try await loadUser(13) }
        let promise = PromiseKitStyle.Promise { try await loadUser(14) }
        let fbl = FBLStyle.Promise { try await loadUser(15) }
        #expect(try await task.async().id == 13)
        #expect(try await promise.async().id == 14)
        #expect(try await fbl.async().id == 15)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Task.sleep(for:)
    @Test func cancellingABoltsTaskThroughItsToken() async {
        let source = BFCancellationTokenSource()
        let task = BFTask<User>(cancellationToken: source.token) {
            try await Task.sleep(for: .seconds(3600))
            return try await loadUser(16)
        }
        source.cancel()
        await #expect(throws: BFCancelledError.self) { try await task.async() }
        #expect(task.cancelled)
    }
}
