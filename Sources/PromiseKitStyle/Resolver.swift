/// Settles the promise it came with. The first resolution wins; later ones change nothing and are reported to
/// `conf.logHandler` as `.cauterized(PMKDoubleResolution)` (see ``PMKDoubleResolution``).
///
/// A struct holding the promise (PromiseKit's is a class): creating one allocates nothing. A promise deallocated while
/// pending is reported by the promise itself, so nothing depends on the resolver's lifetime.
///
/// It is `Sendable` whatever `T`, under the trait CheckedHandlers too: it only seals, handing its value over, and the
/// barrier orders the seal.
public struct Resolver<T>: @unchecked Sendable {
    @usableFromInline let box: PMKBox<Result<T>>

    @inlinable init(_ box: PMKBox<Result<T>>) {
        self.box = box
    }
}

extension Resolver {
    /// Fulfills the promise with `value`.
    @inlinable public func fulfill(_ value: T) {
        resolve(.fulfilled(value))
    }

    /// Rejects the promise with `error`.
    @inlinable public func reject(_ error: Error) {
        resolve(.rejected(error))
    }

    /// Resolves the promise with `result`.
    @inlinable public func resolve(_ result: Result<T>) {
        if !box.seal(result) { PMKDoubleResolution.report(result) }
    }

    /// Resolves the promise with a `Swift.Result`: fulfils with its success, rejects with its failure. Generic over
    /// the failure type, so a completion handler typed `(Swift.Result<T, MyError>) -> Void` can be `seal.resolve`.
    @inlinable public func resolve<E: Error>(_ result: Swift.Result<T, E>) {
        resolve(Result(result))
    }

    /// Rejects with `error` if it is non-nil, else fulfils with `obj`, else rejects with
    /// `PMKError.invalidCallingConvention`: fits Cocoa-style `(T?, Error?)` completion handlers.
    public func resolve(_ obj: T?, _ error: Error?) {
        if let error {
            reject(error)
        } else if let obj {
            fulfill(obj)
        } else {
            reject(PMKError.invalidCallingConvention)
        }
    }

    /// Fulfils with `obj` unless `error` is non-nil.
    public func resolve(_ obj: T, _ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill(obj)
        }
    }

    /// `resolve(obj, error)` for completion handlers that pass the error first.
    public func resolve(_ error: Error?, _ obj: T?) {
        resolve(obj, error)
    }
}

extension Resolver where T == Void {
    /// Fulfils unless `error` is non-nil.
    public func resolve(_ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill(())
        }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Fulfils with `()`. (The underscore is PromiseKit's, see its issue 990.)
    public func fulfill_() {
        fulfill(())
    }
}
