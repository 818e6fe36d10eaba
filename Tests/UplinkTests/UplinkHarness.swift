import DashPilotCore
import Dispatch
import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import Uplink

/// Log lines collected from any thread.
final class LogCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [UplinkLogLine] = []

  var lines: [UplinkLogLine] { lock.withLock { collected } }
  func append(_ line: UplinkLogLine) { lock.withLock { collected.append(line) } }
}

/// An outbox file, the owner's queue and an `UplinkService` on it, as the daemon would have
/// them. `restart()` tears the service down and builds a new one over the same file.
final class UplinkHarness: @unchecked Sendable {
  let database: TestDatabase
  let queue = DispatchQueue(label: "uplink-test-owner")
  let logs = LogCollector()
  let configuration: UplinkConfiguration
  let maxInFlight: Int
  let acknowledgementTimeout: TimeInterval
  let clocks: Clocks
  private var service: UplinkService?

  init(
    configuration: UplinkConfiguration, maxInFlight: Int = 8, acknowledgementTimeout: TimeInterval = 60,
    clocks: Clocks = .system
  ) throws {
    self.acknowledgementTimeout = acknowledgementTimeout
    self.clocks = clocks
    try configuration.validate()
    self.configuration = configuration
    self.maxInFlight = maxInFlight
    database = try TestDatabase()
    outbox = try database.open(vehicle: configuration.vehicleID, bound: configuration.outboxBound)
  }

  /// The outbox through the harness's connection, reopened by `restart()`.
  private(set) var outbox: OutboxDatabase

  func start() throws {
    try queue.sync {
      let logs = self.logs
      let service = UplinkService(
        configuration: configuration, outbox: outbox, queue: queue, maxInFlight: maxInFlight,
        acknowledgementTimeout: acknowledgementTimeout, clocks: clocks, log: { logs.append($0) })
      self.service = service
      try service.start()
    }
  }

  /// Enqueues in one transaction each, as the store commits batches, then lets the service know.
  func enqueue(_ messages: [UplinkMessage], at time: Date = Date(timeIntervalSince1970: 1_700_000_000)) throws {
    try queue.sync {
      for message in messages { try outbox.enqueue(message, queuedAt: time) }
      service?.outboxDidChange()
    }
  }

  var status: UplinkStatus? { queue.sync { service?.status() } }
  var depth: Int { queue.sync { (try? outbox.depth()) ?? -1 } }

  func onService<T>(_ body: (UplinkService) -> T) -> T? { queue.sync { service.map(body) } }

  func stop() {
    queue.sync {
      service?.stop()
      service = nil
    }
  }

  /// A new service (and MQTT client) over the same outbox file, reopened, as after a
  /// daemon restart.
  /// Returns the outbox depth seen between the two services.
  @discardableResult
  func restart() throws -> Int {
    stop()
    try queue.sync { outbox = try database.open(vehicle: configuration.vehicleID, bound: configuration.outboxBound) }
    let left = depth
    try start()
    return left
  }

  deinit { stop() }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
  let deadline = Date() + seconds
  while Date() < deadline {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 50_000_000)
  }
  return condition()
}

/// What a consumer does with at-least-once delivery: keep the first message for each
/// idempotency key, in arrival order.
struct ConsumedMessage {
  var topic: String
  var key: String
  var sequence: Int64
  var json: [String: Any]
  var payload: String
}

func consume(_ messages: [(topic: String, payload: String)], topicSuffix: String) -> (
  all: [ConsumedMessage], unique: [ConsumedMessage]
) {
  var all: [ConsumedMessage] = []
  for (topic, payload) in messages where topic.hasSuffix("/" + topicSuffix) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
      let key = object["key"] as? String, let sequence = object["sequence"] as? Int
    else { continue }
    all.append(ConsumedMessage(topic: topic, key: key, sequence: Int64(sequence), json: object, payload: payload))
  }
  var seen = Set<String>()
  let unique = all.filter { seen.insert($0.key).inserted }
  return (all, unique)
}

func testConfiguration(port: Int, vehicle: String = "van-7", tweak: (inout UplinkConfiguration) -> Void = { _ in })
  -> UplinkConfiguration
{
  var configuration = UplinkConfiguration(
    host: "127.0.0.1", port: port, vehicleID: vehicle, keepalive: 5, reconnectDelay: 1, reconnectDelayMax: 1)
  tweak(&configuration)
  return configuration
}
