import BoltsStyle
import FBLStyle
import PromiseKitStyle

extension Guarantee {
    /// A BoltsStyle task that succeeds with this guarantee's value, on the thread that resolves the guarantee (or
    /// before this method returns if it is resolved). It does not retain the guarantee.
    ///
    /// - Returns: A task of the guarantee's value.
    public func asBFTask() -> BFTask<T> {
        makeBFTask(from: self)
    }

    /// A PromiseKitStyle promise that fulfills with this guarantee's value, on the thread that resolves the guarantee
    /// (or before this method returns if it is resolved). It does not retain the guarantee.
    ///
    /// - Returns: A promise of the guarantee's value.
    public func asPMKPromise() -> PromiseKitStyle.Promise<T> {
        makePMKPromise(from: self)
    }

    /// An FBLStyle promise that fulfills with this guarantee's value, on the thread that resolves the guarantee (or
    /// before this method returns if it is resolved). It does not retain the guarantee.
    ///
    /// - Returns: An FBLStyle promise of the guarantee's value.
    public func asFBLPromise() -> FBLStyle.Promise<T> {
        makeFBLPromise(from: self)
    }
}
