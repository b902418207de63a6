import Dispatch
import PromiseKitStyle
import TestSupport
import Testing

/// A rejection converted from a `Swift.Result<T, any Error>` keeps its error as it is, not boxed once more.
///
/// Converting a generic `E: Error` to `any Error` boxes the value; when `E` is `any Error` itself the new box held the
/// old one, so a rejection converted once per link of a chain (a thenable that reports a `Swift.Result`, say) ended
/// nested once per link, and each dynamic cast of it (`isCancelled`, which `recover` asks for under the default
/// policy) unwrapped the boxes in one recursive runtime call per box: on a 512 KiB thread the chain overflowed the
/// stack after about 3,000 links.
@Suite("Swift.Result conversions", .offThePool, .serialized)
struct SwiftResultErrorTests {
    /// The address of the box an `any Error` refers to (`as any Error` keeps `unsafeBitCast` from opening it).
    static func box(of error: any Error) -> UnsafeRawPointer {
        unsafeBitCast(error as any Error, to: UnsafeRawPointer.self)
    }

    @Test func convertingASwiftResultOfAnyErrorKeepsTheErrorBox() {
        let error: any Error = TestError(code: 7)
        guard case .rejected(let converted) = Result(Swift.Result<Int, any Error>.failure(error)) else {
            Issue.record("not rejected")
            return
        }
        #expect(Self.box(of: converted) == Self.box(of: error))
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Swift.Result<Int, any Error>.failure(error))
        #expect(promise.error.map(Self.box(of:)) == Self.box(of: error))
        let typed = Result(Swift.Result<Int, TestError>.failure(TestError(code: 3)))
        #expect(typed.error as? TestError == TestError(code: 3))
    }

    /// A chain of ``TestEnvironment/smallStackChainLength`` `recover(on: nil)` links, each handler rejecting its
    /// promise through `seal.resolve(Swift.Result<Int, any Error>)`, rejected at the root on a 512 KiB thread.
    @Test func aRejectionConvertedAtEveryLinkSettlesALongChainOnASmallStack() async {
        let length = TestEnvironment.smallStackChainLength
        let end = await SmallStackThread.run { () -> String in
            let (root, resolver) = Promise<Int>.pending()
            var last = root
            for _ in 0..<length {
                last = last.recover(on: nil) { error -> Promise<Int> in
                    Promise { seal in seal.resolve(Swift.Result<Int, any Error>.failure(error)) }
                }
            }
            resolver.reject(TestError(code: 7))
            let settled = DispatchSemaphore(value: 0)
            last.pipe { _ in settled.signal() }
            guard settled.wait(timeout: .now() + TestEnvironment.hangGuard) == .success else { return "pending" }
            switch last.result {
            case .rejected(let error as TestError)?: return "rejected \(error.code)"
            case let other: return "\(String(describing: other))"
            }
        }
        #expect(end == "rejected 7")
    }
}

extension Result {
    fileprivate var error: (any Error)? {
        guard case .rejected(let error) = self else { return nil }
        return error
    }
}
