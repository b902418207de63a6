import Dispatch
import Foundation
import PromiseKitStyle

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Promise where T == (data: Data, response: URLResponse) {
    /// Rejects with ``PMKHTTPError/badStatusCode(_:_:_:)`` when the response is an HTTP response whose status is
    /// outside 200–299; passes anything else on unchanged (a response that is not HTTP, such as a `file:` URL's,
    /// has no status to check).
    ///
    ///     URLSession.shared.dataTask(.promise, with: url).validate().done { data, _ in ... }
    ///
    /// The check is a `map` on the default queue, `conf.Q.map`, as PromiseKit's is.
    public func validate() -> Promise<T> {
        validate(on: conf.Q.map)
    }

    /// ``validate()`` with its queue spelled out: the tests pass a queue of their own, since nothing serves the main
    /// queue there.
    func validate(on queue: DispatchQueue?) -> Promise<T> {
        map(on: queue) { answer in
            guard let response = answer.response as? HTTPURLResponse else { return answer }
            guard (200..<300).contains(response.statusCode) else {
                throw PMKHTTPError.badStatusCode(response.statusCode, answer.data, response)
            }
            return answer
        }
    }
}
