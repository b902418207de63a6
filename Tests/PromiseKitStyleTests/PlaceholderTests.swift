import Testing
import PromiseKitStyle

@Test func placeholderBuilds() {
    #expect(PromiseKitStylePlaceholder.self == PromiseKitStylePlaceholder.self)
}
