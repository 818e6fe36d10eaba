import ControlProtocol
import FoundationEssentials
import Store
import Uplink

// The events a dispatcher follows (`PREFIX/events`): what guidance did with the route and
// the shift starting and ending, queued in the outbox like every other message. Queued in
// a store transaction of their own, which joins the one open if there is one: a shift
// ended by a fleet command announces its end inside the command's transaction, and the
// event commits (or not) with the shift's row and the command's reply.
extension UplinkComponent {
  func announced(_ event: ControlEvent) {
    guard FleetEvent.isPublished(event.payload), let context, let store else { return }
    // The shift open when it happened: the store's, inside the transaction that may be
    // opening or ending it.
    let shiftID = event.payload.shift ?? (try? store.openShift())?.id
    let message = UplinkMessage.event(FleetEvent(shiftID: shiftID, event: event))
    let now = context.clock.now().wall
    do {
      let overflow = try store.transaction("queue an uplink event") { (transaction) throws(StoreError) in
        try outbox.enqueue(message, queuedAt: now, in: transaction)
      }
      eventQueueFailed = false
      enqueued(overflow)
    } catch {
      // Said once until an event is queued again: the store's own health is reported by
      // the recording component.
      if !eventQueueFailed {
        context.logger.warning(
          "uplink: the \(event.type) event could not be queued for the fleet: \(error)",
          fields: LogFields(reason: "uplink"))
      }
      eventQueueFailed = true
    }
  }
}
