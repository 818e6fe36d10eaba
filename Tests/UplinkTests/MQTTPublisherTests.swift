import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Uplink

/// Events collected on the owner's queue.
final class EventCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [MQTTEvent] = []

  var events: [MQTTEvent] { lock.withLock { collected } }
  func append(_ event: MQTTEvent) { lock.withLock { collected.append(event) } }
}

@Suite(.timeLimit(.minutes(3)), .requiresMosquitto) struct MQTTPublisherTests {
  @Test func aPublishIsAcknowledgedByItsMessageID() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-publisher")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "fleet/#", directory: directory)
    defer { consumer.stop() }
    try consumer.waitUntilSubscribed(probeTopic: "fleet/probe")

    let collector = EventCollector()
    let publisher = try MQTTPublisher(
      configuration: testConfiguration(port: broker.port) { $0.topicPrefix = "fleet/van-7" }, password: nil,
      queue: DispatchQueue(label: "publisher-test")
    ) { collector.append($0) }
    publisher.start()
    #expect(await eventually(within: 10) { collector.events.contains(.connected) })
    let messageID = try publisher.publish(
      topic: "fleet/van-7/samples", payload: Array("hello".utf8), qos: 1, retain: false)
    #expect(await eventually(within: 10) { collector.events.contains(.acknowledged(messageID: messageID)) })
    #expect(await eventually(within: 10) { consumer.messages.contains { $0 == ("fleet/van-7/samples", "hello") } })
    #expect(throws: MQTTError(operation: "publish to fleet/#", reason: "Invalid function arguments provided")) {
      try publisher.publish(topic: "fleet/#", payload: [1], qos: 1, retain: false)
    }
    #expect(publisher.stop())
    #expect(
      consumer.messages.filter { $0.topic == "fleet/van-7/status" }.map(\.payload).first?.contains(#""state":"online""#)
        == true)
    #expect(
      await eventually(within: 5) {
        consumer.messages.last?.payload == #"{"schema":"dashpilot.status/1","vehicle":"van-7","state":"offline"}"#
      })
  }

  @Test func aConnectionCutWithoutGoodbyeFiresTheLastWillAndReconnects() async throws {
    let directory = try TestPaths.temporaryDirectory("uplink-will")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let consumer = try MosquittoSubscriber(port: broker.port, topic: "dashpilot/van-7/status", directory: directory)
    defer { consumer.stop() }

    let collector = EventCollector()
    let publisher = try MQTTPublisher(
      configuration: testConfiguration(port: broker.port), password: nil, queue: DispatchQueue(label: "publisher-test")
    ) { collector.append($0) }
    publisher.start()
    defer { publisher.stop() }
    #expect(await eventually(within: 10) { collector.events.contains(.connected) })
    #expect(await eventually(within: 10) { consumer.messages.count == 1 })
    // Cut the TCP connection under libmosquitto: the broker sees no DISCONNECT.
    #expect(shutdown(publisher.socketDescriptor, Int32(SHUT_RDWR)) == 0)
    #expect(await eventually(within: 10) { collector.events.filter { $0 == .connected }.count == 2 })
    #expect(await eventually(within: 10) { consumer.messages.count == 3 })
    let states = consumer.messages.map { message in
      message.payload.contains(#""state":"online""#)
        ? "online" : message.payload.contains(#""state":"offline""#) ? "offline" : "?"
    }
    #expect(states == ["online", "offline", "online"])
    #expect(
      collector.events.filter { if case .acknowledged = $0 { return false } else { return true } }
        == [.connected, .disconnected(reason: "connection lost: The connection was lost"), .connected])
  }

  @Test func anUnresolvableHostIsALookupError() async throws {
    let collector = EventCollector()
    let publisher = try MQTTPublisher(
      configuration: testConfiguration(port: 1883) { $0.host = "no-such-broker.invalid" }, password: nil,
      queue: DispatchQueue(label: "publisher-test")
    ) { collector.append($0) }
    publisher.start()
    let expected = MQTTEvent.connectFailed(reason: "connecting to no-such-broker.invalid:1883 failed: Lookup error")
    #expect(await eventually(within: 10) { collector.events.filter { $0 == expected }.count >= 2 })
    #expect(publisher.stop())
    #expect(collector.events.allSatisfy { $0 == expected })
  }

  @Test func anUnreadableCAFileFailsAtOnce() {
    #expect(throws: MQTTError(operation: "set up TLS", reason: "CAFile /nonexistent/ca.pem cannot be read")) {
      _ = try MQTTPublisher(
        configuration: testConfiguration(port: 8883) { $0.caFile = "/nonexistent/ca.pem" }, password: nil,
        queue: DispatchQueue(label: "publisher-test")
      ) { _ in }
    }
  }

  @Test func anInvalidConfigurationIsAnErrorNotATrap() {
    #expect(
      throws: MQTTError(
        operation: "check the [Uplink] configuration",
        reason: "[Uplink] Port = \"4294967296\": must be between 1 and 65535")
    ) {
      _ = try MQTTPublisher(
        configuration: testConfiguration(port: 4_294_967_296), password: nil,
        queue: DispatchQueue(label: "publisher-test")
      ) { _ in }
    }
  }

  @Test func statusSummaryForATerminal() {
    let waiting = UplinkStatus(
      broker: "broker:1883", connected: false, outboxDepth: 12, oldestUnsentAge: 7300, inFlight: 0,
      lastError: "uplink: connecting to broker:1883 failed: Connection refused", lastAcknowledgedAt: nil)
    #expect(
      waiting.summary
        == "not connected to broker:1883 · outbox 12 waiting, oldest 2 h · last error: uplink: connecting to broker:1883 failed: Connection refused"
    )
    let idle = UplinkStatus(
      broker: "broker:8883", connected: true, outboxDepth: 0, oldestUnsentAge: nil, inFlight: 0, lastError: nil,
      lastAcknowledgedAt: nil)
    #expect(idle.summary == "connected to broker:8883 · outbox empty")
    #expect(
      UplinkStatus.age(59) == "59 s" && UplinkStatus.age(600) == "10 min" && UplinkStatus.age(3 * 86400) == "3 days")
  }
}
