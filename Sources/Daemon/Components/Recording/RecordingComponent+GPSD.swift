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
    gpsdPaused = false
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
    var readSome = false
    var drained = false
    for _ in 0..<Self.readsPerTurn {
      let read = source.readAvailable(arrival: now.monotonic)
      for report in read.reports { handle(report, now: now) }
      if !read.open { return unwatchGPSD() }
      readSome = readSome || !read.reports.isEmpty
      // A read that took less than it asked for emptied the socket: asking again would
      // only find nothing.
      if read.reports.isEmpty || read.drained {
        drained = true
        break
      }
    }
    guard gpsdSocket == socket else { return }
    // The pause ends by reading the socket straight away: there is a receiver's cycle or
    // two in it by then, and a poll to be told so would be a second wake for the same read.
    // A read that finds nothing goes back to waiting for the socket to be readable.
    guard readSome, let pause = readPacing.turnEnded(startedAt: now.monotonic, drained: drained) else {
      return pauseGPSD(false, socket)
    }
    pauseGPSD(true, socket)
    context.loop.after(pause) { [weak self] in
      guard let self, gpsdSocket == socket else { return }
      readGPSD()
    }
  }

  /// Stops or starts watching gpsd's socket, telling the loop only of a change (the loop
  /// rebuilds its list of descriptors when one is made).
  private func pauseGPSD(_ paused: Bool, _ socket: Int32) {
    guard paused != gpsdPaused else { return }
    gpsdPaused = paused
    context?.loop.setEvents(socket, paused ? 0 : Int16(POLLIN))
  }

  /// The reads of gpsd's socket one turn of the loop makes at most.
  static let readsPerTurn = 4

  func unwatchGPSD() {
    guard let socket = gpsdSocket else { return }
    context?.loop.unwatch(socket)
    gpsdSocket = nil
  }
}
