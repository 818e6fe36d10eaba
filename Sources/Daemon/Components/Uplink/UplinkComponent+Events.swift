import ControlProtocol
import FoundationEssentials
import Store
import Uplink

// The events a dispatcher follows (`PREFIX/events`): what guidance did with the route and
// the shift starting and ending; and each stop as it ends (`stop.ended`, its own message on
// `PREFIX/stop`). Queued in the outbox like every other message, in a store transaction
// of their own, which joins the one open if there is one: a shift ended by a fleet command
// announces its end inside the command's transaction, and the event commits (or not) with the shift's row and the command's reply.
extension UplinkComponent {
  func announced(_ event: ControlEvent) {
    guard let context, let store else { return }
    let message: UplinkMessage
    if case .stopEnded(let ended) = event.payload {
      // A stop ended is its own message (`stop`), not an event among the others.
      message = .stop(StopReport(shiftID: ended.shift, stop: ended.stop))
    } else if FleetEvent.isPublished(event.payload) {
      // The shift open when it happened: the store's, inside the transaction that may be
      // opening or ending it.
      let shiftID = event.payload.shift ?? (try? store.openShift())?.id
      message = .event(FleetEvent(shiftID: shiftID, event: event))
    } else {
      return
    }
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
