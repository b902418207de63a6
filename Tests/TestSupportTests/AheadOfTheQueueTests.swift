import TestSupport
import Testing

/// `aheadOfTheQueue` runs its body, and the tasks the body starts, above the priority every test starts at.
@Suite struct AheadOfTheQueueTests {
    @Test func theBodyAndTheTasksItStartsRunAtHighPriority() async {
        #expect(Task.currentPriority < aheadOfTheQueuePriority)  // where the test starts: medium
        let seen = await aheadOfTheQueue {
            let own = Task.currentPriority
            let unstructured = await Task { Task.currentPriority }.value
            async let child = Task.currentPriority
            return [own, unstructured, await child]
        }
        #expect(seen == [aheadOfTheQueuePriority, aheadOfTheQueuePriority, aheadOfTheQueuePriority])
    }
}
