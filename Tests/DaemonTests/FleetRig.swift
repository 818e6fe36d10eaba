import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A fleet office and a car, all real: a mosquitto broker (persistence on), a dispatcher
/// made of mosquitto's own clients (`MosquittoDispatcher`) subscribed to the car's replies
/// and events before anything is sent, and `dashpilotd` with its uplink taking commands,
/// on the rig's one database, so a restarted daemon carries on with the same ledger.
final class FleetRig {
  static let vehicle = "van-7"
  static let prefix = "dashpilot/van-7"

  let directory: URL
  let database: String
  let broker: MosquittoBroker
  let dispatcher: MosquittoDispatcher
  private var nextProbe = 0
  private var lastSent = -Double.infinity

  init(_ name: String) throws {
    directory = try TestPaths.temporaryDirectory(name)
    database = directory.appendingPathComponent("dashpilot.sqlite").path
    broker = try MosquittoBroker(directory: directory)
    try broker.start()
    dispatcher = try MosquittoDispatcher(port: broker.port, prefix: Self.prefix, directory: directory)
  }

  /// The `[Uplink]` section taking commands (or not), with quick reconnects, its `extra`
  /// keys, then any other `sections`.
  func config(accept: Bool = true, extra: [String] = [], sections: String = "") -> String {
    ([
      "[Uplink]", "Host=127.0.0.1", "Port=\(broker.port)", "VehicleID=\(Self.vehicle)", "KeepAlive=5",
      "ReconnectDelay=1", "ReconnectDelayMax=1", "AcceptCommands=\(accept ? "yes" : "no")",
    ] + extra).joined(separator: "\n") + "\n" + sections
  }

  /// `dashpilotd` on the rig's database, ready, and (when it takes commands) subscribed to
  /// its command topic: the broker's log says so.
  func startDaemon(
    accept: Bool = true, extra: [String] = [], sections: String = "", gpsd: String? = nil,
    environment: [String: String] = [:], waitForBroker: Bool = true
  ) throws -> DaemonUnderTest {
    var arguments = ["--database", database]
    if let gpsd { arguments += ["--gpsd", gpsd] }
    let subscriptionsBefore = subscriptions
    let daemon = try DaemonUnderTest(
      config: config(accept: accept, extra: extra, sections: sections), arguments: arguments,
      environment: environment)
    try daemon.waitUntilReady(timeout: 30)
    guard waitForBroker else { return daemon }
    let connected = daemon.waitForStatus(timeout: 30) { $0.object("uplink")?["connected"] as? Bool == true }
    guard connected != nil else { throw DaemonTestFailure("dashpilotd never connected: \(daemon.log)") }
    if accept {
      let deadline = Date(timeIntervalSinceNow: 10)
      while subscriptions == subscriptionsBefore && Date() < deadline { usleep(20_000) }
      guard subscriptions > subscriptionsBefore else {
        throw DaemonTestFailure("dashpilotd never subscribed to its command topic: \(broker.log)")
      }
    }
    return daemon
  }

  /// How often the broker logged the daemon subscribing to its command topic.
  var subscriptions: Int {
    broker.log.components(separatedBy: "\t\(Self.prefix)/command (QoS 1)").count - 1
  }

  /// Sends `line` on the dispatcher's connection, at least 0.11 s after the previous one, so
  /// that a test's commands stay within the box's rate (10 a second) unless it floods on
  /// purpose.
  func send(_ line: String) {
    pace()
    lastSent = dispatcher.send(line)
  }

  /// Sends the contents of `file` as one command, paced as `send`.
  func send(contentsOf file: URL) throws {
    pace()
    lastSent = MosquittoDispatcher.now()
    try dispatcher.sendAndWait(contentsOf: file)
  }

  private func pace() {
    let due = lastSent + 0.11
    let now = MosquittoDispatcher.now()
    if now < due { usleep(useconds_t((due - now) * 1e6)) }
  }

  /// A command line: `{"v":1,"id":ID,"cmd":CMD[,"args":ARGS][,"expires_at":...]}`.
  static func command(_ id: String, _ cmd: String, args: String? = nil, expiresAt: String? = nil) -> String {
    var text = #"{"v":1,"id":"\#(id)","cmd":"\#(cmd)""#
    if let args { text += #","args":\#(args)"# }
    if let expiresAt { text += #","expires_at":"\#(expiresAt)""# }
    return text + "}"
  }

  /// Sends `status` and waits for its reply: once it is in, every command the daemon was
  /// sent before it has been taken in and either answered or set running (the broker
  /// delivers a client's messages in order, and the daemon judges them in order).
  @discardableResult
  func roundTrip(timeout: TimeInterval = 30) throws -> MosquittoDispatcher.Arrival {
    nextProbe += 1
    let id = "probe-\(nextProbe)"
    send(Self.command(id, "status"))
    guard let reply = dispatcher.reply(to: id, timeout: timeout) else {
      throw DaemonTestFailure("no reply to \(id): \(dispatcher.received.map(\.payload).suffix(5))")
    }
    return reply
  }

  func stop() {
    dispatcher.stop()
    broker.stop()
    try? FileManager.default.removeItem(at: directory)
  }
}

extension MosquittoDispatcher.Arrival {
  var ok: Bool? { json["ok"] as? Bool }
  var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
  var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
  var result: [String: Any]? { json["result"] as? [String: Any] }
}
