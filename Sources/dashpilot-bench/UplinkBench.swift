// Uplink benchmarks: how fast the outbox drains to a loopback mosquitto, and what a sample
// costs on the wire.
import DashPilotCore
import Dispatch
import Foundation
import TestSupport
import Uplink

func runUplinkBenchmarks(_ report: inout BenchReport) {
  let samples = 10_000
  for batchSize in [10, 50] {
    do {
      let figures = try measureUplinkDrain(samples: samples, batchSize: batchSize)
      report.record("uplink_drain_\(samples)_samples_batch\(batchSize)", figures.samplesPerSecond, "samples/s")
      report.record("uplink_enqueue_batch\(batchSize)", figures.enqueueSamplesPerSecond, "samples/s")
      report.record("uplink_payload_bytes_per_sample_batch\(batchSize)", figures.payloadBytesPerSample, "bytes")
      report.record("uplink_mqtt_publish_bytes_per_sample_batch\(batchSize)", figures.publishBytesPerSample, "bytes")
    } catch {
      print("uplink benchmarks skipped: \(error)")
      return
    }
  }
  do {
    try UplinkDaemonBench.run(&report)
  } catch {
    print("uplink daemon benchmarks skipped: \(error)")
  }
}

private struct UplinkDrainFigures {
  var samplesPerSecond: Double
  var enqueueSamplesPerSecond: Double
  var payloadBytesPerSample: Double
  var publishBytesPerSample: Double
}

private final class ConnectedMark: @unchecked Sendable {
  private let lock = NSLock()
  private var at: UInt64?
  func mark() { lock.withLock { if at == nil { at = DispatchTime.now().uptimeNanoseconds } } }
  var time: UInt64? { lock.withLock { at } }
}

private func measureUplinkDrain(samples: Int, batchSize: Int) throws -> UplinkDrainFigures {
  let directory = try TestPaths.temporaryDirectory("uplink-bench")
  defer { try? FileManager.default.removeItem(at: directory) }
  let broker = try MosquittoBroker(directory: directory)
  try broker.start()
  defer { broker.stop() }

  var configuration = UplinkConfiguration(host: "127.0.0.1", port: broker.port, vehicleID: "van-7")
  configuration.reconnectDelayMax = 1
  let outbox = try OutboxDatabase(
    path: directory.appendingPathComponent("outbox.sqlite").path,
    outbox: Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 1_000_000))

  var builder = RouteBuilder(session: CaptureSessionID("bench"))
  for step in 1..<samples {
    builder.drive(12 + Double(step % 7), bearing: Double(step % 360), seconds: 1)
  }
  let positions = builder.samples.enumerated().map { index, sample in
    var sample = sample
    sample.speed = 12 + Double(index % 50) / 10
    sample.course = Double(index % 3600) / 10
    sample.horizontalAccuracy = 3 + Double(index % 40) / 10
    return sample
  }
  let messages = stride(from: 0, to: positions.count, by: batchSize).map { start in
    UplinkMessage.samples(
      CommittedSamples(shiftID: 42, samples: Array(positions[start..<min(start + batchSize, positions.count)])))
  }

  // Enqueue: one transaction per batch, as the store commits them.
  let enqueueStart = DispatchTime.now().uptimeNanoseconds
  for message in messages {
    try outbox.enqueue(message, queuedAt: Date(timeIntervalSince1970: 1_700_000_000))
  }
  let enqueueSeconds = Double(DispatchTime.now().uptimeNanoseconds - enqueueStart) / 1e9

  let entries = try outbox.peek(limit: messages.count)
  let topicLength = configuration.topic(.samples).utf8.count
  let payloadBytes = entries.reduce(0) { $0 + $1.payload.count }
  // A QoS 1 PUBLISH: fixed header byte, remaining length (1-4 bytes), topic (2 + n),
  // packet id (2), payload.
  let publishBytes = entries.reduce(0) { total, entry in
    let remaining = 2 + topicLength + 2 + entry.payload.count
    let lengthBytes = remaining < 128 ? 1 : remaining < 16_384 ? 2 : remaining < 2_097_152 ? 3 : 4
    return total + 1 + lengthBytes + remaining
  }

  let queue = DispatchQueue(label: "uplink-bench-owner")
  let connected = ConnectedMark()
  nonisolated(unsafe) let sharedOutbox = outbox
  let service = queue.sync {
    UplinkService(configuration: configuration, outbox: sharedOutbox, queue: queue, maxInFlight: 16) { line in
      if line.message.hasPrefix("uplink: connected") { connected.mark() }
    }
  }
  try queue.sync { try service.start() }
  let deadline = Date() + 120
  var drainedAt: UInt64?
  while Date() < deadline {
    if queue.sync(execute: { (try? sharedOutbox.depth()) ?? -1 }) == 0 {
      drainedAt = DispatchTime.now().uptimeNanoseconds
      break
    }
    usleep(1000)
  }
  queue.sync { service.stop() }
  guard let drainedAt, let start = connected.time else {
    throw TestProcessError("draining \(messages.count) messages did not finish within 120 s")
  }
  let drainSeconds = Double(drainedAt - start) / 1e9
  return UplinkDrainFigures(
    samplesPerSecond: Double(samples) / drainSeconds,
    enqueueSamplesPerSecond: Double(samples) / enqueueSeconds,
    payloadBytesPerSample: Double(payloadBytes) / Double(samples),
    publishBytesPerSample: Double(publishBytes) / Double(samples))
}
