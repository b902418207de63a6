import Foundation
import PromiseKitStyle

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Starts a data task for `convertible` and returns a promise of the body and the response.
    ///
    /// The promise fulfils whenever the server answered, whatever the HTTP status: chain ``PromiseKitStyle/Promise/validate()``
    /// to reject a status outside 200–299. It rejects with the task's error when there was no answer (the host
    /// refused the connection, the task was cancelled: that error's `isCancelled` is true, so `catch` skips it under
    /// the default policy).
    ///
    ///     firstly {
    ///         URLSession.shared.dataTask(.promise, with: url)
    ///     }.validate().map { data, _ in
    ///         try JSONDecoder().decode(Repo.self, from: data)
    ///     }
    ///
    /// - Parameters:
    ///   - _: Write `.promise`.
    ///   - convertible: A `URL` or a `URLRequest`.
    /// - Returns: A promise of `(data, response)`.
    public func dataTask(
        _: PMKNamespacer, with convertible: URLRequestConvertible
    ) -> Promise<(data: Data, response: URLResponse)> {
        Promise { seal in
            dataTask(with: convertible.pmkRequest, completionHandler: seal.taskCompletion).resume()
        }
    }

    /// Starts an upload task that sends `data` as the body of `convertible` and returns a promise of the response's
    /// body and the response. Settles as ``dataTask(_:with:)`` does.
    ///
    /// - Parameters:
    ///   - _: Write `.promise`.
    ///   - convertible: A `URL` or a `URLRequest` (its method, typically POST or PUT, is the caller's to set).
    ///   - data: The body to send.
    /// - Returns: A promise of `(data, response)`.
    public func uploadTask(
        _: PMKNamespacer, with convertible: URLRequestConvertible, from data: Data
    ) -> Promise<(data: Data, response: URLResponse)> {
        Promise { seal in
            uploadTask(with: convertible.pmkRequest, from: data, completionHandler: seal.taskCompletion).resume()
        }
    }

    /// Starts an upload task that sends the contents of `file` as the body of `convertible` and returns a promise of
    /// the response's body and the response. Settles as ``dataTask(_:with:)`` does.
    ///
    /// - Parameters:
    ///   - _: Write `.promise`.
    ///   - convertible: A `URL` or a `URLRequest` (its method, typically POST or PUT, is the caller's to set).
    ///   - file: A file URL whose contents are the body.
    /// - Returns: A promise of `(data, response)`.
    public func uploadTask(
        _: PMKNamespacer, with convertible: URLRequestConvertible, fromFile file: URL
    ) -> Promise<(data: Data, response: URLResponse)> {
        Promise { seal in
            uploadTask(with: convertible.pmkRequest, fromFile: file, completionHandler: seal.taskCompletion).resume()
        }
    }

    /// Starts a download task for `convertible`, moves the downloaded file to `saveLocation`, and returns a promise
    /// of that location and the response.
    ///
    /// The destination is required because `URLSession` deletes its temporary file as soon as its completion handler
    /// returns; the move happens inside that handler. The file is moved with `FileManager.moveItem(at:to:)`, so the
    /// directory of `saveLocation` must exist and nothing may be at `saveLocation` yet: otherwise the promise rejects
    /// with the move's error. Like ``dataTask(_:with:)``, any HTTP status fulfils.
    ///
    /// - Parameters:
    ///   - _: Write `.promise`.
    ///   - convertible: A `URL` or a `URLRequest`.
    ///   - saveLocation: Where the downloaded file ends up.
    /// - Returns: A promise of `(saveLocation, response)`.
    public func downloadTask(
        _: PMKNamespacer, with convertible: URLRequestConvertible, to saveLocation: URL
    ) -> Promise<(saveLocation: URL, response: URLResponse)> {
        Promise { seal in
            let task = downloadTask(with: convertible.pmkRequest) { temporary, response, error in
                switch (temporary, response, error) {
                case (_, _, let error?):
                    seal.reject(error)
                case (let temporary?, let response?, nil):
                    do {
                        try FileManager.default.moveItem(at: temporary, to: saveLocation)
                        seal.fulfill((saveLocation, response))
                    } catch {
                        seal.reject(error)
                    }
                default:
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
            task.resume()
        }
    }
}

extension Resolver {
    /// A task's completion handler that settles this resolver: fulfilled with the body and the response when both
    /// came, rejected with the task's error otherwise, or with `PMKError.invalidCallingConvention` when the handler
    /// got neither.
    fileprivate func taskCompletion<Body, Response>(
        _ body: Body?, _ response: Response?, _ error: Error?
    ) where T == (data: Body, response: Response) {
        if let body, let response {
            fulfill((body, response))
        } else {
            reject(error ?? PMKError.invalidCallingConvention)
        }
    }
}
