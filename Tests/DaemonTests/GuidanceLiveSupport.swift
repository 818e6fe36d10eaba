import Capture
import ControlProtocol
import DashPilotCore
import Foundation
import GPSD
import Guidance
import Routing
import Synchronization
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a real gpsd (gpsfake) the way the daemon's recording component does, at the
/// `FixObserver` seam: every report with a position goes to the observer as a fix, and every
/// sample the real `CaptureService` filter accepts as an accepted sample.
final class GPSDFeedComponent: DaemonComponent {
  let name = "test-gpsd-feed"
  let port: Int
  weak var observer: (any FixObserver)?
  private var source: GPSDSource?
  private var capture = CaptureService(sink: InMemorySampleSink())

  init(port: Int, observer: any FixObserver) {
    self.port = port
    self.observer = observer
  }

  func start(context: DaemonContext) throws {
    try capture.startCapture()
    let bound = context.bind(self)
    let mailbox = context.mailbox
    let source = GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port)) { event in
      mailbox.post { bound.withValue { $0.handle(event) } }
    }
    self.source = source
    source.start()
  }

  private func handle(_ event: GPSDSourceEvent) {
    if case .report(.tpv(let tpv), _) = event, tpv.hasPosition, let time = tpv.time,
      let latitude = tpv.latitude, let longitude = tpv.longitude
    {
      observer?.observe(
        fix: GuidanceFix(
          timestamp: time, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude),
          accuracy: tpv.eph ?? .infinity, speed: tpv.speed, course: tpv.track))
    }
    for outcome in capture.handle(event) {
      if case .accepted(let sample) = outcome { observer?.observe(accepted: sample) }
    }
  }

  func stop() { source?.stop() }
}

/// Components handed to the in-process daemon's loop thread, which owns them from then on.
struct ComponentsForLoop: @unchecked Sendable {
  var components: [any DaemonComponent]
}

/// One event as a follower of `events` received it.
struct FollowedEvent: @unchecked Sendable {
  var type: String
  var message: String
  var fields: [String: Any]

  func string(_ key: String) -> String? { fields[key] as? String }
  func number(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }

  /// A time the component wrote with fractional seconds (`at`, `retry_at`).
  func time(_ key: String) -> Date? {
    guard let text = string(key) else { return nil }
    return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}

/// Follows `events` on the daemon's socket and keeps every event, in order.
final class EventFollower {
  private let client: RawSocketClient
  private(set) var events: [FollowedEvent] = []

  init(socketPath: String) throws {
    client = try RawSocketClient(path: socketPath)
    let answer = client.ask(#"{"v":1,"id":1,"cmd":"events"}"#)
    guard answer?["ok"] as? Bool == true else {
      throw GuidanceRigFailure("events was refused: \(String(describing: answer))")
    }
  }

  /// Reads until an event satisfies `match` (returning it) or `timeout` passes (nil).
  @discardableResult
  func wait(
    timeout: TimeInterval = 30, for match: (FollowedEvent) -> Bool
  ) -> FollowedEvent? {
    if let found = events.first(where: match) { return found }
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      guard let line = client.readLine(timeout: deadline.timeIntervalSinceNow) else { return nil }
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let event = object["event"] as? [String: Any], let type = event["type"] as? String
      else { continue }
      let followed = FollowedEvent(
        type: type, message: event["message"] as? String ?? "", fields: event["fields"] as? [String: Any] ?? [:])
      events.append(followed)
      if match(followed) { return followed }
    }
    return nil
  }

  @discardableResult
  func wait(for type: String, timeout: TimeInterval = 30) -> FollowedEvent? {
    wait(timeout: timeout) { $0.type == type }
  }

  func all(_ type: String) -> [FollowedEvent] { events.filter { $0.type == type } }

  /// Whether provider calls overlapped: a reroute requested while the answer to the previous
  /// one (installed, failed or discarded) had not come back yet. Returns the offending
  /// request ids, empty when none did.
  var overlappingRequests: [String] {
    var outstanding: String?
    var overlaps: [String] = []
    for event in events {
      switch event.type {
      case "guidance.reroute_requested":
        if outstanding != nil { overlaps.append(event.string("request") ?? "?") }
        outstanding = event.string("request")
      case "guidance.rerouted", "guidance.reroute_failed", "guidance.reroute_discarded":
        outstanding = nil
      default:
        break
      }
    }
    return overlaps
  }

  /// Every event type so far, for a failing test's message.
  var summary: String { events.map { "\($0.type): \($0.message)" }.joined(separator: "\n") }
}

/// A generated grid drive (scripts/fixtures/grid_drive.py) and the grid nodes it was built on.
struct GridDrive {
  let name: String
  let facts: [String: Any]

  init(_ name: String) throws {
    self.name = name
    let url = TestPaths.fixtures.appendingPathComponent("grid-drives/\(name).json")
    facts = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
  }

  var nmea: URL { TestPaths.fixtures.appendingPathComponent("grid-drives/\(name).nmea") }

  func coordinate(_ key: String) throws -> GeoCoordinate {
    let pair = try #require(facts[key] as? [Double])
    return GeoCoordinate(latitude: pair[0], longitude: pair[1])
  }

  /// The nodes the drive was built on, `[row][column]` as `[latitude, longitude]`.
  var nodes: [[[Double]]] { facts["nodes"] as? [[[Double]]] ?? [] }
}

/// The guidance component in a real daemon runtime (loop, control socket, events, routing
/// worker) in this process, fed by a real gpsd that gpsfake plays a grid drive into, and
/// routing against a real Valhalla (directly, or through a slow link).
final class GuidanceRig {
  let daemon: InProcessDaemon
  let guidance: GuidanceComponent
  let fake: GPSDFake
  let follower: EventFollower
  private var nextID = 10

  init(
    drive: GridDrive, routingURL: String, cycle: Double = 0.05, provider: (any RouteProvider)? = nil,
    configure: (inout DaemonConfiguration) -> Void = { _ in }
  ) throws {
    var configuration = DaemonConfiguration()
    configuration.routingURL = routingURL
    configure(&configuration)
    fake = try GPSDFake(log: drive.nmea, cycle: cycle)
    let guidance = GuidanceComponent(configuration: configuration, provider: provider)
    self.guidance = guidance
    let feed = GPSDFeedComponent(port: fake.port, observer: guidance)
    let handOver = ComponentsForLoop(components: [feed, guidance])
    daemon = try InProcessDaemon { handOver.components }
    guard daemon.waitUntilReady() else {
      throw GuidanceRigFailure("the daemon did not start: \(daemon.failure.withLock { $0 } ?? "?")")
    }
    follower = try EventFollower(socketPath: daemon.socketPath)
  }

  func stop() {
    fake.stop()
    daemon.stop()
  }

  /// Sends one command on a connection of its own (an idle one is closed after 30 s) and
  /// returns the answer.
  func ask(_ command: String, _ arguments: [String: Any] = [:], timeout: TimeInterval = 30) -> [String: Any]? {
    nextID += 1
    var request: [String: Any] = ["v": 1, "id": nextID, "cmd": command]
    if !arguments.isEmpty { request["args"] = arguments }
    guard let data = try? JSONSerialization.data(withJSONObject: request) else { return nil }
    guard let control = try? RawSocketClient(path: daemon.socketPath) else { return nil }
    return control.ask(String(decoding: data, as: UTF8.self), timeout: timeout)
  }

  /// `navigate` as soon as the daemon has accepted a position (it answers `unavailable`
  /// until then); nil if it never succeeds within `timeout`.
  func navigate(to destination: GeoCoordinate, mode: String = "driving", timeout: TimeInterval = 20) -> [String: Any]? {
    let deadline = Date().addingTimeInterval(timeout)
    var last: [String: Any]?
    while Date() < deadline {
      last = ask(
        "navigate", ["destination": ["lat": destination.latitude, "lon": destination.longitude], "mode": mode])
      if last?.errorCode != "unavailable" { return last }
      usleep(50_000)
    }
    return last
  }

  func status() -> [String: Any]? { ask("status")?["result"] as? [String: Any] }
}

/// One Valhalla per test process for the guidance suites that only ask it for routes.
enum GuidanceEngines {
  static let valhalla: Result<RoutingEngineServer, RoutingEngineServer.StartError> = {
    do {
      return .success(try RoutingEngineServer.startValhalla())
    } catch let error as RoutingEngineServer.StartError {
      return .failure(error)
    } catch {
      return .failure(RoutingEngineServer.StartError(description: "\(error)"))
    }
  }()
}

struct GuidanceRigFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The real Valhalla provider, except that its first `ignoredHeadings` reroute requests lose
/// the car's heading on the way, as an engine that ignores headings would: the real engine
/// then answers with the real shortest route, U-turn and all.
final class HeadingIgnoringProvider: RouteProvider, Sendable {
  let inner: ValhallaProvider
  private let remaining: Mutex<Int>

  init(baseURL: String, ignoredHeadings: Int) {
    inner = ValhallaProvider(baseURL: baseURL)
    remaining = Mutex(ignoredHeadings)
  }

  var name: String { inner.name }

  func route(for request: RouteRequest) -> Result<PlannedRoute, RouteFailure> {
    var sent = request
    if request.course != nil,
      remaining.withLock({ count in
        defer { count -= 1 }
        return count > 0
      })
    {
      sent.course = nil
    }
    return inner.route(for: sent)
  }
}
