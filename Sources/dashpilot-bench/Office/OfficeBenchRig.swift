// The office's benchmark parts, all real: PostgreSQL 15 with PostGIS as it is installed
// (fsync and full-page writes on), a mosquitto without per-message logging, and the
// release dashpilot-officed with its workers.
import Foundation
import Office
import OfficeLoad
import TestSupport

final class OfficeBenchRig {
  let directory: URL
  let postgres: PostgresServer
  let brokerPort: Int
  private let broker = Process()
  private(set) var service: Process?

  init() throws {
    directory = try TestPaths.temporaryDirectory("office-bench")
    postgres = try PostgresServer(settings: [
      "fsync": "on", "full_page_writes": "on", "shared_buffers": "512MB", "max_wal_size": "4GB",
    ])
    try postgres.start()
    try postgres.createDatabase("postgis_template")
    try postgres.psql("CREATE EXTENSION postgis", database: "postgis_template")
    brokerPort = try FreePort.find()
    let config = directory.appendingPathComponent("mosquitto.conf")
    try """
    listener \(brokerPort) 127.0.0.1
    allow_anonymous true
    persistence false
    max_queued_messages 0
    max_inflight_messages 0
    log_type error
    user root

    """.write(to: config, atomically: true, encoding: .utf8)
    broker.executableURL = URL(fileURLWithPath: MosquittoBroker.executable)
    broker.arguments = ["-c", config.path]
    broker.standardOutput = FileHandle.nullDevice
    broker.standardError = FileHandle.nullDevice
    try broker.run()
    guard FreePort.waitUntilListening(port: brokerPort, timeout: 10) else {
      throw TestProcessError("mosquitto did not listen on \(brokerPort)")
    }
  }

  deinit {
    stopService()
    broker.terminate()
    broker.waitUntilExit()
    postgres.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  var brokerPID: Int32 { broker.processIdentifier }

  /// A new database with PostGIS and the office's schema, its partitions made.
  func database(_ name: String) throws -> String {
    try postgres.createDatabase(name, template: "postgis_template")
    let connection = try PostgresConnection(postgres.conninfo(database: name))
    try SchemaMigrator.migrate(connection, software: "dashpilot-bench")
    try connection.execute("SELECT office_partitions_ahead(1, 1)")
    return postgres.conninfo(database: name)
  }

  /// Starts the release dashpilot-officed: `workers` workers of a group and client id of
  /// the run's own, into `database`; waits until every worker is connected.
  func startService(database: String, workers: Int, label: String) throws {
    let config = directory.appendingPathComponent("officed-\(label).conf")
    try "[Broker]\nGroup=\(label)\nClientID=bench-\(label)\n".write(to: config, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = Bundle.main.executableURL?.deletingLastPathComponent()
      .appendingPathComponent("dashpilot-officed")
    process.arguments = [
      "--config", config.path, "--broker", "127.0.0.1:\(brokerPort)", "--database", database, "--workers",
      String(workers),
    ]
    process.standardOutput = FileHandle.nullDevice
    let log = directory.appendingPathComponent("officed-\(label).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    service = process
    let connection = try PostgresConnection(database)
    guard
      ProcessFigures.waitFor(
        timeout: 60,
        {
          let connected = try? connection.execute("SELECT count(*) FROM workers WHERE broker_connected").value(0, 0)
          return connected == String(workers) && self.workerPIDs().count == workers
        })
    else {
      throw TestProcessError(
        "dashpilot-officed's workers did not connect: \(String(describing: try? String(contentsOf: log, encoding: .utf8)))"
      )
    }
  }

  func stopService() {
    guard let service, service.isRunning else { return }
    service.terminate()
    service.waitUntilExit()
  }

  /// The service's processes: itself and its workers.
  func servicePIDs() -> [Int32] {
    guard let service else { return [] }
    return [service.processIdentifier] + workerPIDs()
  }

  func workerPIDs() -> [Int32] {
    guard let service else { return [] }
    let pid = service.processIdentifier
    let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// CPU seconds the service's processes have run so far.
  func serviceCPU() -> Double { servicePIDs().compactMap(ProcessFigures.cpuSeconds).reduce(0, +) }

  /// The service's resident memory at its peak (VmHWM), summed over its processes, MiB.
  func servicePeakMiB() -> Double {
    Double(servicePIDs().compactMap { DaemonBench.statusKilobytes("VmHWM", of: $0) }.reduce(0, +)) / 1024
  }

  /// The publishers of a run: one QoS 1 connection per 5,000 vehicles.
  func publishers(count: Int, label: String) throws -> [FleetPublisher] {
    try (0..<count).map { index in
      let publisher = FleetPublisher(port: brokerPort, clientID: "bench-fleet-\(label)-\(index)")
      try publisher.connect()
      return publisher
    }
  }
}
