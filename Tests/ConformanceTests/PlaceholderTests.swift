import Testing
import PromiseConformance

@Test func placeholderBuilds() {
    #expect(PromiseConformancePlaceholder.self == PromiseConformancePlaceholder.self)
}
