import FoundationEssentials
import Glibc
import PlatformSupport

/// What the source tells its owner, in the order it happened.
public enum GPSDSourceEvent: Sendable, Hashable {
  /// A connection to gpsd is open and WATCH was sent. gpsd answers with a VERSION report.
  case connected(GPSDEndpoint)
  /// A report, stamped with its arrival on the owner's monotonic clock (seconds).
  case report(GPSDReport, arrival: Double)
  /// The connection ended or could not be made; the source will try again.
  case disconnected(reason: String)
  /// The source waits this many seconds before reopening.
  case retrying(after: Double)
}

/// Reads gpsd on a thread of its own (libgps blocks, so never on the Swift concurrency pool
/// nor on the thread that owns the daemon's state), and reports what each read brought at
/// once as values through `batchHandler`, on that thread, in order: the owner hands each
/// batch on to its own queue, so a burst of reports costs one hand-off, not one each.
///
/// When gpsd goes away (EOF, reset, refused) it reports `.disconnected`, waits with
/// `ReconnectBackoff` (1 s doubling to 30 s, jittered), reopens and re-sends WATCH. It
/// never spins and never gives up; only `stop()` ends it.
public final class GPSDSource: @unchecked Sendable {
  public let endpoint: GPSDEndpoint
  private let batchHandler: @Sendable ([GPSDSourceEvent]) -> Void
  private let backoffTemplate: ReconnectBackoff
  private let pollInterval: Double
  /// Whose monotonic clock stamps what the source's thread reads: the owner's.
  private let clocks: Clocks
  /// Guards `stopping`, `started` and `activeDescriptor`, the only state shared with
  /// other threads.
  private let condition = Condition()
  private var stopping = false
  private var started = false
  private var finished = false
  private var activeDescriptor: Int32 = -1
  /// With `socketOpened`: a session's socket is lent to the owner's loop, which reads it
  /// through `readAvailable()`; the source's thread only connects and waits. The three
  /// below are guarded by `condition` too.
  private let socketOpened: (@Sendable (Int32) -> Void)?
  private var lent = false
  private var lentEnd: GPSDConnectionError?
  private var lentReported = false
  /// The session: touched by the source's thread, or while lent only by `readAvailable`.
  private let connection = GPSDConnection()

  public init(
    endpoint: GPSDEndpoint = .standard, backoff: ReconnectBackoff = ReconnectBackoff(),
    pollInterval: Double = 0.5, clocks: Clocks = .system,
    batchHandler: @escaping @Sendable ([GPSDSourceEvent]) -> Void
  ) {
    self.endpoint = endpoint
    self.backoffTemplate = backoff
    self.pollInterval = pollInterval
    self.clocks = clocks
    self.batchHandler = batchHandler
    socketOpened = nil
  }

  /// A source whose sessions are read on the owner's event loop rather than on a thread
  /// of their own, which saves a thread's wake-up and a hand-off for each read: at a
  /// real receiver's pace every report pays them. The source's thread still opens each
  /// session (a blocking connect), sends WATCH, and closes and reopens it; it calls
  /// `socketOpened` with the session's socket, which the owner then watches for reading
  /// (non-blocking) and calls `readAvailable()` on each time it is readable, until that
  /// says the session ended; the owner stamps the reports with its own clock there.
  /// `connected`, `disconnected` and `retrying` still come
  /// through `batchHandler`, from the source's thread. `readAvailable()` and `stop()` must
  /// be called on one thread, the owner's.
  public init(
    endpoint: GPSDEndpoint, backoff: ReconnectBackoff = ReconnectBackoff(),
    batchHandler: @escaping @Sendable ([GPSDSourceEvent]) -> Void,
    socketOpened: @escaping @Sendable (Int32) -> Void
  ) {
    self.endpoint = endpoint
    self.backoffTemplate = backoff
    self.pollInterval = 0.5
    clocks = .system  // not read: the owner stamps what its loop reads (`readAvailable`)
    self.batchHandler = batchHandler
    self.socketOpened = socketOpened
  }

  /// Reads what gpsd sent on the lent session's socket without waiting and returns its
  /// reports in order, all stamped `arrival` (the owner's monotonic clock as it read the
  /// socket, so the stamps are on the clock it judges them by); `open` is false once the
  /// session has ended (EOF, an error, or `stop()`): stop watching the socket, which the
  /// source's thread then closes before it reconnects. `drained`: the socket held no more
  /// when it was read (a read that asks again would find nothing).
  public func readAvailable(arrival: Double) -> (reports: [GPSDSourceEvent], open: Bool, drained: Bool) {
    condition.lock()
    let reading = lent && lentEnd == nil && !stopping
    condition.unlock()
    guard reading else { return ([], false, true) }
    var reports: [GPSDSourceEvent] = []
    let outcome = connection.readLines { line in
      if let report = GPSDJSONDecoder.decode(utf8: line) { reports.append(.report(report, arrival: arrival)) }
    }
    guard case let .closed(error) = outcome else {
      if !reports.isEmpty && !lentReported { condition.withLock { lentReported = true } }
      return (reports, true, outcome.drained)
    }
    condition.lock()
    if !reports.isEmpty { lentReported = true }
    lentEnd = error
    condition.broadcast()
    condition.unlock()
    return (reports, false, true)
  }

  /// A source that hands its events over one at a time, for owners with no queue of their
  /// own to save hand-offs on.
  public convenience init(
    endpoint: GPSDEndpoint = .standard, backoff: ReconnectBackoff = ReconnectBackoff(),
    pollInterval: Double = 0.5, clocks: Clocks = .system, handler: @escaping @Sendable (GPSDSourceEvent) -> Void
  ) {
    self.init(endpoint: endpoint, backoff: backoff, pollInterval: pollInterval, clocks: clocks) { events in
      for event in events { handler(event) }
    }
  }

  private func handler(_ event: GPSDSourceEvent) { batchHandler([event]) }

  /// Starts the reading thread; a second call does nothing.
  public func start() {
    condition.lock()
    defer { condition.unlock() }
    guard !started else { return }
    started = true
    let thread = NativeThread { [self] in run() }
    thread.name = "dashpilot.gpsd"
    thread.start()
  }

  /// Stops reading and waits (up to `timeout` seconds) until the thread has finished, so
  /// no event arrives after it returns. Returns whether the thread finished in time.
  @discardableResult
  public func stop(timeout: Double = 5) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    GPSDConnection.shutdown(fileDescriptor: activeDescriptor)
    condition.broadcast()
    guard started else { return true }
    let deadline = Condition.deadline(after: timeout)
    while !finished {
      if !condition.wait(until: deadline) { return finished }
    }
    return true
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }

  private func run() {
    var backoff = backoffTemplate
    var random = SystemRandomNumberGenerator()
    while !isStopping {
      let reason = session(on: connection, backoff: &backoff)
      connection.close()
      setDescriptor(-1)
      if isStopping { break }
      handler(.disconnected(reason: reason.description))
      let delay = backoff.nextDelay(unitRandom: Double.random(in: 0..<1, using: &random))
      handler(.retrying(after: delay))
      sleep(seconds: delay)
    }
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// One connection, from open to its end.
  private func session(on connection: GPSDConnection, backoff: inout ReconnectBackoff)
    -> GPSDConnectionError
  {
    do {
      try connection.open(endpoint)
    } catch {
      return error
    }
    setDescriptor(connection.fileDescriptor)
    handler(.connected(endpoint))
    if let socketOpened { return lendSession(socketOpened, backoff: &backoff) }
    var batch: [GPSDSourceEvent] = []
    while !isStopping {
      if let error = connection.waitForData(timeout: pollInterval) { return error }
      // What one read brings arrived together: one arrival time for all of it.
      let arrival = clocks.monotonic()
      let outcome = connection.readLines { line in
        if let report = GPSDJSONDecoder.decode(utf8: line) { batch.append(.report(report, arrival: arrival)) }
      }
      if !batch.isEmpty {
        backoff.reset()
        batchHandler(batch)
        batch.removeAll(keepingCapacity: true)
      }
      if case let .closed(error) = outcome { return error }
    }
    return .closedByPeer
  }

  /// Lends the open session to the owner's loop and waits until it has ended there.
  private func lendSession(_ socketOpened: @Sendable (Int32) -> Void, backoff: inout ReconnectBackoff)
    -> GPSDConnectionError
  {
    condition.withLock {
      lent = true
      lentEnd = nil
      lentReported = false
    }
    socketOpened(connection.fileDescriptor)
    condition.lock()
    while !stopping && lentEnd == nil { condition.wait() }
    lent = false
    let end = lentEnd ?? .closedByPeer
    let reported = lentReported
    condition.unlock()
    if reported { backoff.reset() }
    return end
  }

  private func setDescriptor(_ descriptor: Int32) {
    condition.lock()
    activeDescriptor = descriptor
    condition.unlock()
  }

  /// Sleeps, but wakes at once when stopped.
  private func sleep(seconds: Double) {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Condition.deadline(after: seconds)
    while !stopping {
      if !condition.wait(until: deadline) { return }
    }
  }
}
