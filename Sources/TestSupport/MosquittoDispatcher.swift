import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fleet dispatcher made of mosquitto's own clients, not of ours: a `mosquitto_pub -l`
/// that publishes each line written to it as one QoS 1 command on `PREFIX/command`, and a
/// `mosquitto_sub` on `PREFIX/reply`, `events` and `live` whose output is read as it comes,
/// each line stamped with the monotonic time it arrived (the latency figures are those
/// stamps against the time the command was written). Subscribed before anything is sent.
public final class MosquittoDispatcher: @unchecked Sendable {
  // @unchecked: what the reader thread collects is behind the condition's lock.
  public struct Arrival: Sendable {
    public var topic: String
    public var payload: String
    /// Monotonic seconds (`CLOCK_MONOTONIC`) when the line was read.
    public var at: Double
    public var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:]
    }
  }

  public let prefix: String
  private let port: Int
  private let publisher: Process
  private let input: FileHandle
  private let subscriber: Process
  private let condition = NSCondition()
  private var arrivals: [Arrival] = []
  private var probes = 0

  public init(port: Int, prefix: String, directory: URL, clientID: String = "test-dispatcher") throws {
    self.prefix = prefix
    self.port = port
    subscriber = Process()
    subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
    subscriber.arguments = [
      "-h", "127.0.0.1", "-p", String(port), "-t", "\(prefix)/reply", "-t", "\(prefix)/events", "-t", "\(prefix)/stop",
      "-t", "\(prefix)/shift",
      "-t",
      "\(prefix)/live", "-t", "\(prefix)/probe", "-q", "1", "-i", clientID, "-v",
    ]
    let output = Pipe()
    subscriber.standardOutput = output
    subscriber.standardError = FileHandle.nullDevice
    try ProcessLaunch.run(subscriber)
    publisher = Process()
    publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
    publisher.arguments = [
      "-h", "127.0.0.1", "-p", String(port), "-t", "\(prefix)/command", "-q", "1", "-l", "-i", "\(clientID)-pub",
    ]
    let pipe = Pipe()
    publisher.standardInput = pipe
    publisher.standardOutput = FileHandle.nullDevice
    publisher.standardError = FileHandle.nullDevice
    input = pipe.fileHandleForWriting
    try ProcessLaunch.run(publisher)
    let reading = output.fileHandleForReading
    let thread = Thread { [self] in read(reading) }
    thread.name = "test.dispatcher"
    thread.start()
    try waitUntilSubscribed()
  }

  /// Publishes `command` (one line of JSON) on the command topic now; returns the monotonic
  /// time it was written.
  @discardableResult
  public func send(_ command: String) -> Double {
    let at = Self.now()
    input.write(Data((command + "\n").utf8))
    return at
  }

  /// Publishes `command` with a `mosquitto_pub` of its own, which returns once the broker
  /// has it (QoS 1): for a command sent while the car is offline.
  public func sendAndWait(_ command: String) throws {
    try MosquittoBroker.run(
      "/usr/bin/mosquitto_pub",
      ["-h", "127.0.0.1", "-p", String(port), "-t", "\(prefix)/command", "-q", "1", "-m", command])
  }

  /// Publishes the contents of `file` as one command (`mosquitto_pub -f`), returning once
  /// the broker has it: for a payload too large for one line.
  public func sendAndWait(contentsOf file: URL) throws {
    try MosquittoBroker.run(
      "/usr/bin/mosquitto_pub",
      ["-h", "127.0.0.1", "-p", String(port), "-t", "\(prefix)/command", "-q", "1", "-f", file.path])
  }

  /// Everything received so far, in arrival order.
  public var received: [Arrival] { condition.withLock { arrivals } }

  /// Replies received for command `id`, in arrival order.
  public func replies(to id: String) -> [Arrival] {
    received.filter { $0.topic == "\(prefix)/reply" && $0.json["id"] as? String == id }
  }

  /// The event types received (`guidance.off_route`, ...), in arrival order.
  public var eventTypes: [String] { eventTypes(in: received) }

  /// The event types among `arrivals`, in order: for a `wait` condition, which is handed
  /// what was received and must not ask for it again (the lock is held).
  public func eventTypes(in arrivals: [Arrival]) -> [String] {
    arrivals.filter { $0.topic == "\(prefix)/events" }.compactMap {
      ($0.json["event"] as? [String: Any])?["type"] as? String
    }
  }

  /// Waits until `condition` holds for what was received (true), or `timeout` passes. The
  /// condition runs with the lock held: it reads its argument, never `received`.
  @discardableResult
  public func wait(timeout: TimeInterval, until satisfied: ([Arrival]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !satisfied(arrivals) {
      if !condition.wait(until: deadline) { return satisfied(arrivals) }
    }
    return true
  }

  /// Waits for the first reply to `id`.
  public func reply(to id: String, timeout: TimeInterval = 30) -> Arrival? {
    let topic = "\(prefix)/reply"
    wait(timeout: timeout) { $0.contains { $0.topic == topic && $0.json["id"] as? String == id } }
    return replies(to: id).first
  }

  public func stop() {
    try? input.close()
    ProcessLaunch.terminate(publisher)
    ProcessLaunch.terminate(subscriber)
  }

  deinit {
    for process in [publisher, subscriber] where process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  public static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Publishes on `PREFIX/probe` and waits for it to come back: the broker handles a
  /// connection's messages in order, so everything published before it has been routed.
  public func probe(timeout: TimeInterval = 10) throws {
    probes += 1
    let text = "probe-\(probes)"
    let topic = "\(prefix)/probe"
    try MosquittoBroker.run(
      "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-q", "1", "-m", text])
    guard wait(timeout: timeout, until: { $0.contains { $0.topic == topic && $0.payload == text } }) else {
      throw TestProcessError("the probe \(text) never came back")
    }
  }

  private func waitUntilSubscribed() throws {
    let probe = "\(prefix)/probe"
    for _ in 0..<20 {
      try MosquittoBroker.run(
        "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-t", probe, "-m", "p"])
      if wait(timeout: 0.5, until: { $0.contains { $0.topic == probe } }) { return }
    }
    throw TestProcessError("mosquitto_sub never received a probe on \(probe)")
  }

  private func read(_ handle: FileHandle) {
    var pending = Data()
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { return }
      let at = Self.now()
      pending.append(chunk)
      var lines: [Arrival] = []
      while let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 { lines.append(Arrival(topic: String(parts[0]), payload: String(parts[1]), at: at)) }
      }
      if !lines.isEmpty {
        condition.withLock {
          arrivals += lines
          condition.broadcast()
        }
      }
    }
  }
}
