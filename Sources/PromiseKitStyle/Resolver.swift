/// Settles the promise it came with. The first resolution wins; later ones change nothing and are reported to
/// `conf.logHandler` as `.doubleResolution`.
///
/// A struct holding the promise (PromiseKit's is a class): creating one allocates nothing. A promise deallocated while
/// pending is reported by the promise itself, so nothing depends on the resolver's lifetime.
public struct Resolver<T>: Sendable {
    @usableFromInline let box: PMKBox<Result<T, Error>>

    @inlinable init(_ box: PMKBox<Result<T, Error>>) {
        self.box = box
    }
}

extension Resolver {
    /// Fulfills the promise with `value`.
    @inlinable public func fulfill(_ value: T) {
        resolve(.success(value))
    }

    /// Rejects the promise with `error`.
    @inlinable public func reject(_ error: Error) {
        resolve(.failure(error))
    }

    /// Resolves the promise with `result`.
    @inlinable public func resolve(_ result: Result<T, Error>) {
        if !box.seal(result) { conf.logHandler(.doubleResolution) }
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

extension Result {
    /// True for `.success`.
    public var isFulfilled: Bool {
        guard case .success = self else { return false }
        return true
    }
}
