import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Uplink

/// Against a real mosquitto on 127.0.0.1 and a real `mosquitto_sub` consumer.
@Suite(.timeLimit(.minutes(2)), .requiresMosquitto) struct UplinkBrokerTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func batchesArriveCompleteAndInSequenceOrder() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-broker")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port))
    let messages = sampleBatches(count: 40, size: 25)
    try harness.enqueue(messages)
    try harness.start()

    #expect(await eventually(within: 20) { harness.depth == 0 })
    #expect(await eventually(within: 10) { consume(consumer.messages, topicSuffix: "samples").unique.count == 40 })
    let received = consume(consumer.messages, topicSuffix: "samples").unique
    #expect(received.map(\.sequence) == Array(1...40))
    #expect(received.map(\.topic) == Array(repeating: "dashpilot/van-7/samples", count: 40))
    let encoder = UplinkEncoder(vehicleID: "van-7")
    #expect(
      received.map(\.payload)
        == messages.enumerated().map {
          String(decoding: encoder.encode($1, sequence: Int64($0 + 1), queuedAt: t0), as: UTF8.self)
        })
    let times = received.flatMap { ($0.json["samples"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? String } }
    #expect(times.count == 1000)
    #expect(times == times.sorted())
    #expect(
      consumer.messages.first { $0.topic == "dashpilot/van-7/status" }?.payload.contains(#""state":"online""#) == true)
    let status = try #require(harness.status)
    #expect(status.connected && status.outboxDepth == 0 && status.oldestUnsentAge == nil && status.inFlight == 0)
    #expect(status.lastError == nil)

    harness.stop()
    #expect(await eventually(within: 5) { consumer.messages.last?.topic == "dashpilot/van-7/status" })
    #expect(consumer.messages.last?.payload == #"{"schema":"dashpilot.status/1","vehicle":"van-7","state":"offline"}"#)
  }

  @Test func aBrokerOutageLosesNothingAndTheOutboxDrains() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-outage")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port))
    let messages = sampleBatches(count: 30, size: 10)
    try harness.start()
    try harness.enqueue(Array(messages[0..<10]))
    #expect(await eventually(within: 10) { harness.depth == 0 })

    broker.stop()
    #expect(await eventually(within: 10) { harness.status?.connected == false })
    try harness.enqueue(Array(messages[10..<30]), at: t0 + 60)
    try await Task.sleep(nanoseconds: 1_500_000_000)
    let down = try #require(harness.status)
    #expect(down.outboxDepth == 20)
    #expect(down.connected == false)
    #expect(
      down.lastError == "uplink: 127.0.0.1:\(broker.port): connection lost: The connection was lost"
        || down.lastError == "uplink: connecting to 127.0.0.1:\(broker.port) failed: Connection refused")

    try broker.start()
    #expect(await eventually(within: 20) { harness.depth == 0 })
    #expect(await eventually(within: 10) { consume(consumer.messages, topicSuffix: "samples").unique.count == 30 })
    let received = consume(consumer.messages, topicSuffix: "samples")
    #expect(received.unique.map(\.sequence) == Array(1...30))
    #expect(harness.status?.lastError == nil)
    #expect(harness.logs.lines.contains(UplinkLogLine(.info, "uplink: connected to 127.0.0.1:\(broker.port)")))
  }

  @Test func aBrokerStoppedMidDrainLosesNothing() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-outage-mid")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port))
    let messages = sampleBatches(count: 1020, size: 2)
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.connected == true })
    try harness.enqueue(Array(messages[0..<500]))
    #expect(await eventually(within: 20) { harness.depth == 0 })
    // Freeze the broker so the next entries are certainly in flight or queued when it
    // goes down, then stop it the way a service manager would.
    broker.pause()
    try harness.enqueue(Array(messages[500..<1000]))
    #expect(harness.status?.inFlight == 8)
    #expect(harness.depth == 500)
    broker.resume()
    broker.stop()
    try harness.enqueue(Array(messages[1000..<1020]), at: t0 + 60)
    #expect(await eventually(within: 10) { harness.status?.connected == false })
    try await Task.sleep(nanoseconds: 1_000_000_000)
    #expect(harness.depth >= 20)

    try broker.start()
    #expect(await eventually(within: 30) { harness.depth == 0 })
    #expect(await eventually(within: 15) { consume(consumer.messages, topicSuffix: "samples").unique.count == 1020 })
    #expect(consume(consumer.messages, topicSuffix: "samples").unique.map(\.sequence) == Array(1...1020))
  }

  @Test func entriesWaitingTooLongForAnAcknowledgementArePublishedAgain() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-stall")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    // A keepalive far longer than the pause: on a loaded machine a 5 s one can expire while
    // the broker is frozen, and the test would see a lost connection instead of the stall.
    var configuration = testConfiguration(port: broker.port)
    configuration.keepalive = 300
    let harness = try UplinkHarness(configuration: configuration, acknowledgementTimeout: 1)
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.connected == true })
    broker.pause()
    try harness.enqueue(sampleBatches(count: 5, size: 2))
    #expect(harness.status?.inFlight == 5)
    try await Task.sleep(nanoseconds: 1_300_000_000)
    _ = harness.onService { $0.tick() }
    let status = try #require(harness.status)
    #expect(status.inFlight == 5)
    // The journal line says why they go again. (On a starved machine the frozen broker can
    // also cost the connection, whose line may then be the last error; the stall line is
    // still logged.)
    let stalled = harness.logs.lines.map(\.message).filter {
      $0.hasPrefix("uplink: no acknowledgement from 127.0.0.1:\(broker.port) for ")
    }
    #expect(stalled.count == 1, "\(harness.logs.lines)")
    #expect(stalled.first?.hasSuffix(" s; publishing the unacknowledged entries again") == true)
    broker.resume()
    #expect(await eventually(within: 10) { harness.depth == 0 })
    // Both copies reach the consumer; de-duplication leaves each once.
    #expect(await eventually(within: 10) { consume(consumer.messages, topicSuffix: "samples").all.count == 10 })
    #expect(consume(consumer.messages, topicSuffix: "samples").unique.map(\.sequence) == [1, 2, 3, 4, 5])
  }

  /// A broker that knows van-7 by the password "right-horse", and a publisher started
  /// with `password` and three queued batches of five samples.
  func startWithPassword(_ password: String, in directory: URL) throws -> (MosquittoBroker, UplinkHarness) {
    let broker = try MosquittoBroker(directory: directory, passwords: ["van-7": "right-horse"])
    try broker.start()
    let passwordFile = directory.appendingPathComponent("uplink-password")
    try "\(password)\n".write(to: passwordFile, atomically: true, encoding: .utf8)
    do {
      let harness = try UplinkHarness(
        configuration: testConfiguration(port: broker.port) {
          $0.username = "van-7"
          $0.passwordFile = passwordFile.path
        })
      try harness.enqueue(sampleBatches(count: 3, size: 5))
      try harness.start()
      return (broker, harness)
    } catch {
      broker.stop()
      throw error
    }
  }

  @Test func aWrongPasswordIsReportedAndNothingLeavesTheOutbox() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-auth")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (broker, harness) = try startWithPassword("wrong-horse", in: directory)
    defer { broker.stop() }
    let expected = "uplink: 127.0.0.1:\(broker.port) refused the connection: Connection Refused: not authorised."
    #expect(await eventually(within: 10) { harness.status?.lastError == expected })
    try await Task.sleep(nanoseconds: 2_500_000_000)
    let status = try #require(harness.status)
    #expect(status.connected == false)
    #expect(status.outboxDepth == 3)
    #expect(status.lastError == expected)
    #expect(harness.logs.lines.filter { $0 == UplinkLogLine(.warning, expected) }.count == 1)
  }

  @Test func theRightPasswordIsAccepted() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-auth-ok")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (broker, harness) = try startWithPassword("right-horse", in: directory)
    defer { broker.stop() }
    #expect(await eventually(within: 10) { harness.depth == 0 })
    #expect(harness.status?.connected == true)
  }

  @Test func anUnreachableBrokerIsReportedAndNothingLeavesTheOutbox() async throws {
    let port = try FreePort.find()
    let harness = try UplinkHarness(configuration: testConfiguration(port: port))
    try harness.enqueue(sampleBatches(count: 4, size: 5), at: t0)
    try harness.start()
    let expected = "uplink: connecting to 127.0.0.1:\(port) failed: Connection refused"
    #expect(await eventually(within: 10) { harness.status?.lastError == expected })
    try await Task.sleep(nanoseconds: 2_500_000_000)
    let status = try #require(harness.status)
    #expect(status.connected == false)
    #expect(status.outboxDepth == 4)
    #expect(status.inFlight == 0)
    #expect((status.oldestUnsentAge ?? 0) > 86_400 * 365)
    #expect(harness.logs.lines.filter { $0 == UplinkLogLine(.warning, expected) }.count == 1)
    #expect(status.summary.hasPrefix("not connected to 127.0.0.1:\(port) · outbox 4 waiting, oldest "))
  }

  @Test func anUnreadablePasswordFileIsAClearError() throws {
    let harness = try UplinkHarness(
      configuration: testConfiguration(port: 1) {
        $0.username = "van-7"
        $0.passwordFile = "/nonexistent/uplink-password"
      })
    #expect(
      throws: MQTTError(operation: "read PasswordFile /nonexistent/uplink-password", reason: "the file cannot be read")
    ) {
      try harness.start()
    }
    let status = try #require(harness.status)
    #expect(status.connected == false)
    #expect(
      status.lastError == "uplink: read PasswordFile /nonexistent/uplink-password failed: the file cannot be read")
    #expect(
      harness.logs.lines == [
        UplinkLogLine(.error, "uplink: read PasswordFile /nonexistent/uplink-password failed: the file cannot be read")
      ])
  }

  @Test func tlsWithATestCertificateAuthority() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-tls")
    defer { try? FileManager.default.removeItem(at: directory) }
    let certificates = try MosquittoCertificates.make(in: directory)
    let broker = try MosquittoBroker(directory: directory, tls: certificates.brokerFiles)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(
      port: broker.port, topic: "dashpilot/#", directory: directory, caFile: certificates.caFile)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    let harness = try UplinkHarness(
      configuration: testConfiguration(port: broker.port) { $0.caFile = certificates.caFile })
    try harness.enqueue(sampleBatches(count: 5, size: 10))
    try harness.start()
    #expect(await eventually(within: 15) { harness.depth == 0 })
    #expect(await eventually(within: 10) { consume(consumer.messages, topicSuffix: "samples").unique.count == 5 })
    #expect(consume(consumer.messages, topicSuffix: "samples").unique.map(\.sequence) == [1, 2, 3, 4, 5])
  }

  @Test func tlsWithTheWrongAuthorityIsRefusedClearly() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-tls-bad")
    defer { try? FileManager.default.removeItem(at: directory) }
    let certificates = try MosquittoCertificates.make(in: directory)
    let otherDirectory = directory.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: otherDirectory, withIntermediateDirectories: true)
    let stranger = try MosquittoCertificates.make(in: otherDirectory, caName: "Someone Else")
    let broker = try MosquittoBroker(directory: directory, tls: certificates.brokerFiles)
    try broker.start()
    defer { broker.stop() }
    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port) { $0.caFile = stranger.caFile })
    try harness.enqueue(sampleBatches(count: 2, size: 3))
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.lastError != nil })
    let status = try #require(harness.status)
    #expect(status.connected == false)
    #expect(status.outboxDepth == 2)
    #expect(
      status.lastError?.hasPrefix("uplink: connecting to 127.0.0.1:\(broker.port) failed: A TLS error occurred")
        == true, "\(status.lastError ?? "")")
    #expect(status.lastError?.contains("certificate verify failed") == true)
  }

  @Test func aPublisherRestartedMidDrainDeliversExactlyTheQueuedSetAfterDeduplication() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-restart")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "dashpilot/probe")

    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port), maxInFlight: 4)
    let batches = sampleBatches(count: 2000, size: 2)
    let report = try #require(
      ShiftReport(
        shift: Shift(id: 42, startedAt: t0, endedAt: t0 + 3000),
        distance: RouteDistance(
          metres: 35_880, segments: 1, gaps: 0, usablePositions: 3000, usesInferredContinuity: false)))
    let opened = SessionEvent(
      shiftID: 42, captureSession: CaptureSessionID("cs-1"), phase: .start, at: t0, reason: "fixes_started")
    let closed = SessionEvent(
      shiftID: 42, captureSession: CaptureSessionID("cs-1"), phase: .end, at: t0 + 2999, reason: "shift_ended")
    // The first thousand batches drain; the rest are queued while the broker is frozen, so
    // the restart is certainly mid-drain (some gone, the rest queued or in flight) however
    // fast or loaded the machine is.
    try harness.enqueue([.session(opened)] + batches[..<1000])
    try harness.start()
    #expect(await eventually(within: 30) { harness.depth == 0 })
    broker.pause()
    try harness.enqueue(Array(batches[1000...]) + [.session(closed), .shift(report)])
    let leftAtRestart = try harness.restart()
    #expect(leftAtRestart == 1002)
    broker.resume()
    #expect(await eventually(within: 30) { harness.depth == 0 })
    #expect(try harness.restart() == 0)
    #expect(
      await eventually(within: 10) {
        consume(consumer.messages, topicSuffix: "samples").unique.count == 2000
          && consume(consumer.messages, topicSuffix: "shift").unique.count == 1
      })
    let samples = consume(consumer.messages, topicSuffix: "samples")
    #expect(samples.unique.map(\.sequence) == Array(2...2001))
    #expect(Set(samples.unique.map(\.key)) == Set((2...2001).map { "van-7/42/\($0)" }))
    #expect(consume(consumer.messages, topicSuffix: "session").unique.map(\.sequence) == [1, 2002])
    let shift = try #require(consume(consumer.messages, topicSuffix: "shift").unique.first)
    #expect(shift.key == "van-7/42/2003")
    #expect(shift.json["summary"] as? String == "22.3 mi recorded")
    #expect(harness.depth == 0)
  }

  @Test func liveStatusIsRetainedAndRateLimited() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-live")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port) { $0.liveInterval = 3600 })
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.connected == true })
    let first = LiveStatus(at: t0, position: RouteBuilder().samples[0], shift: nil)
    #expect(harness.onService { $0.publishLive(first) } == true)
    #expect(harness.onService { $0.publishLive(LiveStatus(at: t0 + 1, position: nil, shift: nil)) } == false)
    // A consumer arriving later gets the retained picture at once.
    try await Task.sleep(nanoseconds: 300_000_000)
    let late = try MosquittoSubscriber(
      port: broker.port, topic: "dashpilot/van-7/live", directory: directory, clientID: "dashboard")
    defer { late.stop() }
    #expect(await eventually(within: 10) { !late.messages.isEmpty })
    #expect(
      late.messages.first?.payload == String(decoding: UplinkEncoder(vehicleID: "van-7").live(first), as: UTF8.self))
  }
}
