import CMosquitto
import ControlProtocol
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What the C callbacks reach through libmosquitto's `obj` pointer; what changes is in
/// `state`, behind its mutex.
final class MQTTCallbackBox: @unchecked Sendable {
  let encoder: UplinkEncoder
  private let queue: DispatchQueue
  private let events: @Sendable (MQTTEvent) -> Void
  private let clock: @Sendable () -> Date
  private let statusTopic: String
  /// The topic subscribed to on every connection; nil when the box takes no commands.
  private let commandTopic: String?
  private let acknowledgedSignal = DispatchSemaphore(value: 0)

  private struct State {
    var closed = false
    var stopping = false
    var connectedNow = false
    var connectedSinceAsked = false
    var lastLogError: String?
    /// Acknowledged while stopping, so `stop` can wait for its offline status to land.
    var acknowledgedWhileStopping: Set<Int32> = []
  }
  private let state = Mutex(State())

  init(
    queue: DispatchQueue, events: @escaping @Sendable (MQTTEvent) -> Void, clock: @escaping @Sendable () -> Date,
    encoder: UplinkEncoder, statusTopic: String, commandTopic: String?
  ) {
    self.queue = queue
    self.events = events
    self.clock = clock
    self.encoder = encoder
    self.statusTopic = statusTopic
    self.commandTopic = commandTopic
  }

  var isStopping: Bool { state.withLock { $0.stopping } }
  var isConnected: Bool { state.withLock { $0.connectedNow } }
  func beginStopping() { state.withLock { $0.stopping = true } }
  func close() { state.withLock { $0.closed = true } }
  func takeLastLogError() -> String? {
    state.withLock { state in
      defer { state.lastLogError = nil }
      return state.lastLogError
    }
  }
  func takeWasConnected() -> Bool {
    state.withLock { state in
      defer { state.connectedSinceAsked = false }
      return state.connectedSinceAsked
    }
  }

  private func deliver(_ event: MQTTEvent) {
    let isClosed = state.withLock { $0.closed }
    guard !isClosed else { return }
    let events = self.events
    queue.async { events(event) }
  }

  func connected(_ client: OpaquePointer, code: Int32) {
    guard code == 0 else {
      _ = takeLastLogError()
      deliver(.refused(reason: String(cString: mosquitto_connack_string(code))))
      return
    }
    state.withLock { state in
      state.connectedNow = true
      state.connectedSinceAsked = true
      state.lastLogError = nil
    }
    let online = encoder.status(online: true, since: clock())
    mosquitto_publish(client, nil, statusTopic, Int32(online.count), online, 1, true)
    // Again on every connection: a broker that lost the session (restarted without
    // persistence, or expired it) would otherwise never send the box another command.
    if let commandTopic { mosquitto_subscribe(client, nil, commandTopic, 1) }
    deliver(.connected)
  }

  /// A message on the command topic. A payload over the command size limit is not copied:
  /// its size is all the refusal needs.
  func received(_ message: mosquitto_message) {
    let size = Int(max(0, message.payloadlen))
    var payload: [UInt8]?
    if size <= ControlProtocolLimits.maximumCommandSize {
      payload = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: message.payload, count: size))
    }
    let topic = message.topic.map { String(cString: $0) } ?? ""
    deliver(.message(InboundCommand(topic: topic, payload: payload, size: size, retained: message.retain)))
  }

  func disconnected(code: Int32) {
    let wasConnected = state.withLock { state in
      defer { state.connectedNow = false }
      return state.connectedNow
    }
    guard wasConnected, code != 0 else { return }
    deliver(
      .disconnected(
        reason: "connection lost: " + MQTTPublisher.describe(code, errno: errno, detail: takeLastLogError())))
  }

  func failed(reason: String) { deliver(.connectFailed(reason: reason)) }

  func acknowledged(_ messageID: Int32) {
    let isStopping = state.withLock { state in
      state.stopping ? state.acknowledgedWhileStopping.insert(messageID).inserted : false
    }
    if isStopping { acknowledgedSignal.signal() }
    deliver(.acknowledged(messageID: messageID))
  }

  func logged(_ line: String) { state.withLock { $0.lastLogError = line } }

  func waitForAcknowledgement(of messageID: Int32, until deadline: DispatchTime) {
    while !state.withLock({ $0.acknowledgedWhileStopping.contains(messageID) }) {
      if acknowledgedSignal.wait(timeout: deadline) == .timedOut { return }
    }
  }
}
