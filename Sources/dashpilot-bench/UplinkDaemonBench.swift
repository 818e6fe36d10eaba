// The uplink in the real `dashpilotd`: how fast the daemon drains a backlog of N samples
// (an open shift's batches queued while the car was offline) to a loopback mosquitto, and
// what a sample costs on the wire in the daemon's own batches.
import DashPilotCore
import Foundation
import Store
import TestSupport
import Uplink

#if canImport(Glibc)
  import Glibc
#endif

enum UplinkDaemonBench {
  struct Failure: Error, CustomStringConvertible { var description: String }

  struct Figures {
    var samplesPerSecond: Double
    var messagesPerSecond: Double
    var payloadBytesPerSample: Double
    var publishBytesPerSample: Double
  }

  /// A 10 Hz receiver's one-second batches, and a 1 Hz receiver's.
  static func run(_ report: inout BenchReport) throws {
    for (samples, batchSize) in [(20_000, 10), (5_000, 1)] {
      let figures = try measure(samples: samples, batchSize: batchSize)
      let name = "uplink_daemon_drain_\(samples)_samples_batch\(batchSize)"
      report.record(name, figures.samplesPerSecond.rounded(), "samples/s")
      report.record("\(name)_messages", figures.messagesPerSecond.rounded(), "messages/s")
      report.record(
        "uplink_daemon_payload_bytes_per_sample_batch\(batchSize)", (figures.payloadBytesPerSample * 10).rounded() / 10,
        "bytes")
      report.record(
        "uplink_daemon_wire_bytes_per_sample_batch\(batchSize)", (figures.publishBytesPerSample * 10).rounded() / 10,
        "bytes")
    }
  }

  /// Queues the backlog through the store with the daemon's encoder (one `samples` message
  /// per committed batch, as the daemon's commit observer does), then starts `dashpilotd`
  /// against a running broker and times it from "uplink: connected" in its log until the
  /// outbox is empty (polled every 5 ms through a connection of the bench's own).
  static func measure(samples: Int, batchSize: Int) throws -> Figures {
    let directory = try TestPaths.temporaryDirectory("uplink-daemon-bench")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let encoder = UplinkEncoder(vehicleID: "van-7")
    do {
      let store = try SampleStore(path: database)
      try store.install(Outbox.schema)
      // What the daemon's uplink queues: a `samples` message per batch, a `session` message per
      // session start and end, a `shift` message per completed shift.
      store.commitObserver = OutboxCommitObserver(
        outbox: Outbox(encoder: encoder, bound: 10_000_000), unit: .miles,
        clock: { Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime) })
      let shift = try store.startShift(at: Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime - 1))
      for start in stride(from: 0, to: samples, by: batchSize) {
        try store.append(
          (start..<min(start + batchSize, samples)).map {
            StoreIngestPattern.sample($0, session: CaptureSessionID("bench"))
          },
          toShift: shift.id)
      }
    }
    let outbox = try OutboxDatabase(path: database, outbox: Outbox(encoder: encoder, bound: 10_000_000))
    let queued = try outbox.peek(limit: Int.max)
    let sampleEntries = queued.filter { $0.topic == .samples }
    guard sampleEntries.reduce(0, { $0 + $1.sampleCount }) == samples else {
      throw Failure(
        description: "the backlog holds \(sampleEntries.reduce(0) { $0 + $1.sampleCount }) samples, not \(samples)")
    }
    let topicLength = "dashpilot/van-7/samples".utf8.count
    let payloadBytes = sampleEntries.reduce(0) { $0 + $1.payload.count }
    // A QoS 1 PUBLISH: fixed header byte, remaining length (1-4 bytes), topic (2 + n),
    // packet id (2), payload; and the broker's 4-byte PUBACK.
    let wireBytes = sampleEntries.reduce(0) { total, entry in
      let remaining = 2 + topicLength + 2 + entry.payload.count
      let lengthBytes = remaining < 128 ? 1 : remaining < 16_384 ? 2 : remaining < 2_097_152 ? 3 : 4
      return total + 1 + lengthBytes + remaining + 4
    }

    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let daemon = try DaemonUnderTest(
      config: "[Uplink]\nHost=127.0.0.1\nPort=\(broker.port)\nVehicleID=van-7\n", arguments: ["--database", database])
    defer { daemon.stop() }
    let deadline = Date(timeIntervalSinceNow: 300)
    var connectedAt: UInt64?
    while connectedAt == nil && Date() < deadline {
      if daemon.log.contains("uplink: connected to") {
        connectedAt = DispatchTime.now().uptimeNanoseconds
      } else {
        usleep(2_000)
      }
    }
    guard let connectedAt else { throw Failure(description: "dashpilotd never connected: \(daemon.log)") }
    var drainedAt: UInt64?
    while drainedAt == nil && Date() < deadline {
      if try outbox.depth() == 0 { drainedAt = DispatchTime.now().uptimeNanoseconds } else { usleep(5_000) }
    }
    guard let drainedAt else { throw Failure(description: "the outbox did not drain: \(daemon.log)") }
    let seconds = Double(drainedAt - connectedAt) / 1e9
    return Figures(
      samplesPerSecond: Double(samples) / seconds, messagesPerSecond: Double(queued.count) / seconds,
      payloadBytesPerSample: Double(payloadBytes) / Double(samples),
      publishBytesPerSample: Double(wireBytes) / Double(samples))
  }
}
