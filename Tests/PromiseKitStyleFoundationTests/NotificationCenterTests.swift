import Foundation
import PromiseKitStyle
import PromiseKitStyleFoundation
import TestSupport
import Testing

@Suite("NotificationCenter.observe(once:)")
struct NotificationCenterTests {
    private let name = Notification.Name("PromiseKitStyleFoundationTests.note")

    /// The value the guarantee fulfilled with, if it did.
    private func value(_ guarantee: Guarantee<Notification>) -> Notification? {
        guard case .fulfilled(let note)? = guarantee.result else { return nil }
        return note
    }

    @Test func fulfilsInsideTheFirstPostAndLetsGoOfItsObserver() {
        let center = NotificationCenter()
        weak var released: Guarantee<Notification>?
        do {
            let guarantee = center.observe(once: name)
            released = guarantee
            center.post(name: name, object: nil, userInfo: ["n": 1])
            #expect(value(guarantee)?.userInfo?["n"] as? Int == 1)
        }
        // The observer's block held the guarantee; the centre let go of it, so the observer is gone and the second
        // post reaches nothing of it.
        #expect(released == nil)
        center.post(name: name, object: nil, userInfo: ["n": 2])
    }

    @Test func aBlockStillObservingHoldsItsGuarantee() {
        // The control for the test above: an observer never removed keeps the guarantee alive.
        let center = NotificationCenter()
        weak var held: Guarantee<Notification>?
        let observer: NSObjectProtocol
        do {
            let (guarantee, fulfill) = Guarantee<Notification>.pending()
            held = guarantee
            observer = center.addObserver(forName: name, object: nil, queue: nil, using: fulfill)
            center.post(name: name, object: nil)
        }
        #expect(held != nil)
        center.removeObserver(observer)
        #expect(held == nil)
    }

    @Test func theSecondPostDoesNotChangeTheValue() async {
        let center = NotificationCenter()
        let guarantee = center.observe(once: name)
        center.post(name: name, object: nil, userInfo: ["n": 1])
        center.post(name: name, object: nil, userInfo: ["n": 2])
        #expect(await guarantee.async().userInfo?["n"] as? Int == 1)
    }

    @Test func listensOnlyToTheGivenObject() async {
        let center = NotificationCenter()
        let (wanted, other) = (NSObject(), NSObject())
        let guarantee = center.observe(once: name, object: wanted)
        center.post(name: name, object: other, userInfo: ["from": "other"])
        #expect(guarantee.result == nil)
        center.post(name: name, object: wanted, userInfo: ["from": "wanted"])
        let note = await guarantee.async()
        #expect(note.userInfo?["from"] as? String == "wanted")
        #expect(note.object as AnyObject? === wanted)
    }

    @Test func otherNamesDoNotFulfil() {
        let center = NotificationCenter()
        let guarantee = center.observe(once: name)
        center.post(name: Notification.Name("PromiseKitStyleFoundationTests.other"), object: nil)
        #expect(guarantee.result == nil)
        center.post(name: name, object: nil)
        #expect(guarantee.result != nil)
    }
}
