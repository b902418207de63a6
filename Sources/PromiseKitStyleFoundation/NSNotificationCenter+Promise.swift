import Foundation
import PromiseKitStyle

extension NotificationCenter {
    /// Observes the next notification called `name` (from `object`, or from any sender when `object` is `nil`) and
    /// returns a guarantee of it.
    ///
    ///     NotificationCenter.default.observe(once: .NSCalendarDayChanged).done { _ in refresh() }
    ///
    /// The guarantee fulfils on the thread that posted, inside `post`. The observer is removed right there, before
    /// `post` returns, so a later post of the same name finds no observer. (PromiseKit removes it from a `done` on
    /// the default queue, a hop later; nothing else differs.)
    ///
    /// - Parameters:
    ///   - name: The notification's name.
    ///   - object: The only sender to listen to, or `nil` for any.
    /// - Returns: A guarantee of the notification.
    public func observe(once name: Notification.Name, object: Any? = nil) -> Guarantee<Notification> {
        let (guarantee, fulfill) = Guarantee<Notification>.pending()
        // The observer token is not `Sendable`; the handler below, the only other user, runs once, after this line.
        nonisolated(unsafe) let observer = addObserver(forName: name, object: object, queue: nil, using: fulfill)
        // Inline (`on: nil`): the removal must not wait for a queue, least of all the main queue, which not every
        // process serves.
        guarantee.done(on: nil) { _ in self.removeObserver(observer) }
        return guarantee
    }
}
