// Correct: the plain forms keep the choice they have without the trait. Under the trait every plain form of a name
// that has a main-actor form is `@_disfavoredOverload`, all of them together, so that among themselves they rank as in
// the original: a `Promise<Void>` recovered with a promise stays a `Promise<Void>` (not the `Guarantee<Void>` of the
// `Void` form), and a Bolts error continuation that names `any Error` is the untyped one. No diagnostic.
import BoltsStyle
import PromiseKitStyle

func recovered(_ promise: Promise<Void>, _ fallback: Promise<Void>) -> Promise<Void> {
    let chained = promise.recover(on: nil) { _ in fallback }
    return chained
}

func recovered(_ task: BFTask<Int>) -> BFTask<Int> {
    let chained = task.continueOnErrorWith(.immediate) { (error: any Error) in 0 }
    return chained
}

func names(_ promise: Promise<[String]>) -> Promise<[Int]> {
    let counted = promise.map(on: nil) { $0.map(\.count) }
    return counted
}
