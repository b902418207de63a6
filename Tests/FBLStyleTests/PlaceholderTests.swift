import Testing
import FBLStyle

@Test func placeholderBuilds() {
    #expect(FBLStylePlaceholder.self == FBLStylePlaceholder.self)
}
