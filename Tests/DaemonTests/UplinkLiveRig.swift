import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Everything a live uplink test drives, all real: a mosquitto broker (its own config,
/// persistence on, a free port, TLS when given certificates), a consumer (`mosquitto_sub`
/// with a persistent session) subscribed before anything is published, and a gpsd reading
/// a pseudo-terminal fed the steady drive. `startDaemon()` starts `dashpilotd` on the rig's
/// one database, so a restarted daemon carries on with the same shift and outbox.
final class UplinkLiveRig {
  static let vehicle = "van-7"

  let directory: URL
  let database: String
  let broker: MosquittoBroker
  let consumer: MosquittoSubscriber
  let receiver: GPSDPseudoReceiver

  /// `fixes` at 4 NMEA lines each, one line every `secondsPerLine`.
  init(_ name: String, fixes: Int, secondsPerLine: Double, certificates: MosquittoCertificates? = nil) throws {
    directory = try TestPaths.temporaryDirectory(name)
    database = directory.appendingPathComponent("dashpilot.sqlite").path
    broker = try MosquittoBroker(directory: directory, tls: certificates?.brokerFiles)
    try broker.start()
    consumer = try MosquittoSubscriber(
      port: broker.port, topic: "dashpilot/\(Self.vehicle)/#", directory: directory, caFile: certificates?.caFile)
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/\(Self.vehicle)/probe")
    receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: fixes, in: directory), secondsPerLine: secondsPerLine)
    try receiver.startGPSD()
  }

  /// The `[Uplink]` section: quick reconnects, so a test need not wait out a long back-off,
  /// and a live status every second.
  func uplinkSection(caFile: String? = nil) -> String {
    var lines = [
      "[Uplink]", "Host=127.0.0.1", "Port=\(broker.port)", "VehicleID=\(Self.vehicle)", "KeepAlive=5",
      "ReconnectDelay=1", "ReconnectDelayMax=2", "LiveInterval=1",
    ]
    if let caFile { lines.append("CAFile=\(caFile)") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `dashpilotd` on the rig's database and gpsd, ready and connected to gpsd.
  func startDaemon(caFile: String? = nil) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(
      config: uplinkSection(caFile: caFile),
      arguments: ["--gpsd", "127.0.0.1:\(receiver.port)", "--database", database])
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    return daemon
  }

  /// What the consumer has received so far, read as a fleet back end would.
  var delivery: UplinkFleetDelivery { UplinkFleetDelivery(consumer.messages) }

  /// The shift's stored positions, in row order, read with `sqlite3 -readonly`.
  func storedPositions(shift: Int) throws -> [String] {
    try DaemonDatabaseProbe.query(
      database,
      "SELECT fix_time_ms || ' ' || latitude_e7 || ' ' || longitude_e7 FROM samples WHERE shift_id = \(shift) ORDER BY id"
    )
  }

  /// Polls `condition` on what the consumer received until it holds; the last reading.
  func waitForDelivery(timeout: Double, _ condition: (UplinkFleetDelivery) -> Bool) -> UplinkFleetDelivery {
    let deadline = Date(timeIntervalSinceNow: timeout)
    var current = delivery
    while !condition(current) && Date() < deadline {
      usleep(200_000)
      current = delivery
    }
    return current
  }

  func stop() {
    receiver.stop()
    consumer.stop()
    broker.stop()
    try? FileManager.default.removeItem(at: directory)
  }
}

extension Dictionary where Key == String, Value == Any {
  /// `status --json`'s uplink object, or an empty one.
  var uplink: [String: Any] { object("uplink") ?? [:] }
  var outboxDepth: Int? { uplink["outbox_depth"] as? Int }
  var usablePositions: Int { object("shift.distance")?["usable_positions"] as? Int ?? 0 }
}
