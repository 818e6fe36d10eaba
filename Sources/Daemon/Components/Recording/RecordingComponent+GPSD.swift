import FoundationEssentials
import GPSD

#if canImport(Glibc)
  import Glibc
#endif

/// Reading gpsd's socket on the loop: the source's thread connects and lends the socket.
extension RecordingComponent {
  func watchGPSD(_ socket: Int32) {
    guard let context, source != nil else { return }  // stopped meanwhile
    gpsdSocket = socket
    readPacing.reset()
    context.loop.watch(socket, events: Int16(POLLIN)) { [unowned self] _ in readGPSD() }
  }

  /// gpsd writes a cycle's reports (TPV, GST, SKY ...) one after another, so the next is
  /// often there by the time the last is handled: it is read at once, in the same turn of
  /// the loop, rather than after another poll. A few reads at most, so a flood from gpsd
  /// never keeps the loop from the control socket and the tick. A turn that read all the
  /// socket held may leave it unread a while (`GPSDReadPacing`).
  func readGPSD() {
    guard let source, let context, let socket = gpsdSocket else { return unwatchGPSD() }
    // One reading of the clocks for what this turn's few reads bring (it arrived within a
    // millisecond or so, far finer than any rule judges arrivals by), which stamps the
    // reports too: their arrival is then judged on the clock it was read on.
    let now = context.clock.now()
    var drained = false
    for _ in 0..<Self.readsPerTurn {
      let (reports, open) = source.readAvailable(arrival: now.monotonic)
      for report in reports { handle(report, now: now) }
      if !open { return unwatchGPSD() }
      if reports.isEmpty {
        drained = true
        break
      }
    }
    guard let pause = readPacing.turnEnded(startedAt: now.monotonic, drained: drained), gpsdSocket == socket
    else { return }
    context.loop.setEvents(socket, 0)
    context.loop.after(pause) { [weak self] in
      guard let self, gpsdSocket == socket else { return }
      self.context?.loop.setEvents(socket, Int16(POLLIN))
    }
  }

  /// The reads of gpsd's socket one turn of the loop makes at most.
  static let readsPerTurn = 4

  func unwatchGPSD() {
    guard let socket = gpsdSocket else { return }
    context?.loop.unwatch(socket)
    gpsdSocket = nil
  }
}
