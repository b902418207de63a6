import Testing
import BoltsStyle

@Test func placeholderBuilds() {
    #expect(BoltsStylePlaceholder.self == BoltsStylePlaceholder.self)
}
