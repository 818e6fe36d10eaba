import ControlProtocol
import DashPilotCore
import FoundationEssentials

// What the recording component says in `status`: gpsd, capture (with the stop the vehicle
// stands in now), the open shift and the store.
extension RecordingComponent {
  public func contribute(to status: inout StatusResult) {
    status.gpsd = coordinator.gpsd.section(address: configuration.gpsd.description)
    status.capture = capture.map { coordinator.tally.section(session: $0.session) } ?? SessionTally.idle
    if capture != nil, let context, let receiverNow = context.receiverNow(context.clock.now()) {
      status.capture.stop = currentStop.current(now: receiverNow).map(CurrentStop.init)
    }
    if let liveMileage {
      do {
        if let live = try liveMileage.status() {
          let standing = context.map { coordinator.standing(capture?.recorder?.policy.status, now: $0.clock.now()) }
          status.shift = figure.summary(of: live.shift, distance: live.distance, live: standing)
        }
      } catch {
        coordinator.storeReadFailed("the open shift could not be read: \(error)")
      }
    }
    status.store.ok = coordinator.storeHealth.error == nil
    status.store.lastError = coordinator.storeHealth.error
    contributeMaintenance(to: &status.store)
  }
}
