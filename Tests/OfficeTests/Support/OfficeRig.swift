import Foundation
import Office
import OfficeLoad
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A real office: mosquitto on loopback (persistence on, its per-session queue and in-flight
/// limits lifted, as docs/office.md tells a fleet to set them), a database with the office's
/// schema, and the real `dashpilot-officed` process with its workers.
final class OfficeRig: @unchecked Sendable {
  let directory: URL
  let broker: MosquittoBroker
  let database: OfficeDatabase
  let configFile: URL
  let logFile: URL
  private(set) var service: Process?

  /// The lines the office's tests add to mosquitto's configuration.
  static let brokerSettings = ["max_queued_messages 0", "max_inflight_messages 0"]

  init(_ label: String, database: OfficeDatabase? = nil, config: [String] = []) throws {
    directory = try TestPaths.temporaryDirectory("office-\(label)")
    broker = try MosquittoBroker(
      directory: directory.appendingPathComponent("broker"), extra: Self.brokerSettings)
    try broker.start()
    self.database = try database ?? OfficeDatabase(label)
    configFile = directory.appendingPathComponent("officed.conf")
    logFile = directory.appendingPathComponent("officed.log")
    try (["[Ingest]", "BatchDelay=0.02"] + config).joined(separator: "\n").appending("\n")
      .write(to: configFile, atomically: true, encoding: .utf8)
  }

  deinit {
    stop()
    broker.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts dashpilot-officed with `workers` workers and waits until each is connected.
  func start(workers: Int = 2) throws {
    let process = Process()
    process.executableURL = try DaemonBinaries.url("dashpilot-officed")
    process.arguments = [
      "--config", configFile.path, "--broker", "127.0.0.1:\(broker.port)", "--database", database.conninfo,
      "--workers", String(workers),
    ]
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    let log = try FileHandle(forWritingTo: logFile)
    log.seekToEndOfFile()
    process.standardOutput = log
    process.standardError = log
    try process.run()
    service = process
    try waitFor("\(workers) workers connected", timeout: 30) {
      let pids = childPIDs()
      guard pids.count == workers else { return false }
      let connected = try database.psql(
        "SELECT count(*) FROM workers WHERE broker_connected AND pid IN (\(pids.map(String.init).joined(separator: ",")))"
      )
      return Int(connected) == workers
    }
  }

  /// SIGTERM, as systemd stops it, and the wait for it to leave.
  func stop() {
    guard let service, service.isRunning else { return }
    service.terminate()
    service.waitUntilExit()
  }

  /// The worker processes now running (the service's children).
  func childPIDs() -> [Int32] {
    guard let service else { return [] }
    let path = "/proc/\(service.processIdentifier)/task/\(service.processIdentifier)/children"
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// The pid of worker `index`, as its row says.
  func pid(ofWorker index: Int) throws -> Int32 {
    Int32(try database.psql("SELECT pid FROM workers WHERE worker = \(index)")) ?? 0
  }

  var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

  func publisher(_ name: String = "fleet") throws -> FleetPublisher {
    let publisher = FleetPublisher(port: broker.port, clientID: "\(name)-\(UUID().uuidString.prefix(6))")
    try publisher.connect()
    return publisher
  }

  /// Polls `condition` every 100 ms until it holds; fails naming `what` and the log's end.
  func waitFor(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date() + timeout
    while Date() < deadline {
      if (try? condition()) == true { return }
      usleep(100_000)
    }
    throw TestProcessError("\(what): not within \(Int(timeout)) s; the service's log ends:\n\(log.suffix(3000))")
  }

  /// Waits until the ledger holds `messages` keys.
  func waitForLedger(_ messages: Int, timeout: Double = 60) throws {
    try waitFor("\(messages) messages in the ledger", timeout: timeout) {
      try database.count("ledger") == messages
    }
  }
}
