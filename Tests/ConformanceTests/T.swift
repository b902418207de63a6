import Testing
import PromiseConformance
@Test func t() {}
