import FoundationEssentials
import OfficeCore
import PlatformSupport

/// One MQTT 5 connection, spoken directly over TCP so that the office decides when each
/// message is acknowledged: a PUBACK is written only when `acknowledge` is called, after
/// the transaction storing the message has committed. (Debian 12's client libraries send
/// it as the message arrives, before the application has it: Paho MQTT C 1.3.12 in
/// MQTTProtocol_handlePublishes, libmosquitto 2.0.11 in handle__publish; docs/office.md.)
///
/// A thread of its own reads the socket, answers the broker's keep-alive, and hands each
/// packet to `handler`; writes come from any thread, under a lock.
public final class MQTTConnection: @unchecked Sendable {
  // @unchecked: `socket` is set before the reader starts; the rest is guarded by `state`.
  public struct Options: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var clientID: String
    /// False: take up the session the broker kept (and the messages it holds for it).
    public var cleanStart = false
    /// Seconds the broker keeps the session, and queues messages for it, while away.
    public var sessionExpiry: UInt32 = 604_800
    /// Messages the broker may have in flight to us unacknowledged: the batch's bound.
    public var receiveMaximum: UInt16 = 1000
    public var keepAlive: UInt16 = 30
    public var credentials: MQTTEncode.Credentials?
    /// A packet longer than this is not held whole (`MQTTFramer`).
    public var maximumHeld = 4_194_304 + 65_536
    public var connectTimeout = 10.0

    public init(host: String, port: Int, clientID: String) {
      self.host = host
      self.port = port
      self.clientID = clientID
    }
  }

  public enum Event: Sendable {
    case publish(MQTTPublish)
    case puback(packetID: UInt16, reasonCode: UInt8)
    /// The connection ended; no more events come.
    case closed(reason: String)
  }

  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  public let options: Options
  private let handler: @Sendable (Event) -> Void
  private var socket: TCPSocket?
  let state = Condition()
  // Guarded by `state`.
  private var open = false
  private var lastWrite = 0.0
  private var pingSentAt: Double?
  private var subacks: [UInt16: [UInt8]] = [:]
  private var closeReason: String?

  public init(options: Options, handler: @escaping @Sendable (Event) -> Void) {
    self.options = options
    self.handler = handler
  }

  /// What the broker said to CONNECT.
  public struct Accepted: Sendable, Hashable {
    /// Whether it had kept a session for this client id.
    public var sessionPresent: Bool
    /// QoS 1 and 2 messages we may have in flight to it at once.
    public var receiveMaximum: Int
  }

  /// Connects and reads the CONNACK; then the reader thread runs until the connection ends.
  @discardableResult
  public func connect() throws(Failure) -> Accepted {
    let socket: TCPSocket
    do {
      socket = try TCPSocket(host: options.host, port: options.port, timeout: options.connectTimeout)
    } catch {
      throw Failure(error.description)
    }
    var properties = MQTTProperties()
    properties.sessionExpiryInterval = options.sessionExpiry
    properties.receiveMaximum = options.receiveMaximum
    properties.topicAliasMaximum = 0
    guard
      socket.write(
        MQTTEncode.connect(
          clientID: options.clientID, cleanStart: options.cleanStart, keepAlive: options.keepAlive,
          properties: properties, credentials: options.credentials))
    else { throw Failure("the broker closed the connection before CONNECT was sent") }
    var framer = MQTTFramer(maximumHeld: options.maximumHeld)
    var frames: [MQTTFramer.Frame] = []
    let deadline = MonotonicClock.now() + options.connectTimeout
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while frames.isEmpty {
      let left = deadline - MonotonicClock.now()
      guard left > 0 else { throw Failure("no CONNACK within \(Int(options.connectTimeout)) s") }
      guard let count = buffer.withUnsafeMutableBytes({ socket.read(into: $0, timeout: left) }) else { continue }
      guard count > 0 else { throw Failure("the broker closed the connection instead of answering CONNECT") }
      do {
        frames = try buffer.withUnsafeBytes { try framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      } catch {
        throw Failure("the broker's answer to CONNECT is not MQTT: \(error)")
      }
    }
    let connack: MQTTPacket
    do {
      connack = try MQTTPacket.read(first: frames[0].first, body: frames[0].body[...])
    } catch {
      throw Failure("the broker's CONNACK is malformed: \(error)")
    }
    guard case .connack(let sessionPresent, let code, let answered) = connack else {
      throw Failure("the broker answered CONNECT with another packet")
    }
    guard code == 0 else {
      throw Failure(
        "the broker refused the connection: \(MQTTReasonCode.text(code))"
          + (answered.reasonString.map { " (\($0))" } ?? ""))
    }
    self.socket = socket
    state.withLock {
      open = true
      lastWrite = MonotonicClock.now()
    }
    let keepAlive = Double(answered.serverKeepAlive ?? options.keepAlive)
    let rest = Array(frames.dropFirst())
    let reader = NativeThread { [self] in read(socket, framer: framer, pending: rest, keepAlive: keepAlive) }
    reader.name = "mqtt-reader"
    guard reader.start() else { throw Failure("cannot start the connection's reader thread") }
    return Accepted(sessionPresent: sessionPresent, receiveMaximum: Int(answered.receiveMaximum ?? 65_535))
  }

  public var isOpen: Bool { state.withLock { open } }

  /// Subscribes and waits for the SUBACK; returns its reason codes (0-2 granted QoS).
  public func subscribe(_ filters: [String], qos: UInt8, packetID: UInt16 = 1, timeout: Double = 10)
    throws(Failure) -> [UInt8]
  {
    guard write(MQTTEncode.subscribe(packetID: packetID, filters: filters, qos: qos)) else {
      throw Failure("the connection closed before SUBSCRIBE was sent")
    }
    let deadline = Condition.deadline(after: timeout)
    let outcome = state.withLock { () -> Result<[UInt8], Failure> in
      while subacks[packetID] == nil {
        guard open else { return .failure(Failure("the connection closed before SUBACK: \(closeReason ?? "")")) }
        guard state.wait(until: deadline) else { return .failure(Failure("no SUBACK within \(Int(timeout)) s")) }
      }
      return .success(subacks.removeValue(forKey: packetID) ?? [])
    }
    return try outcome.get()
  }

  /// PUBACKs for `packetIDs`, in one write; false when the connection is gone (the broker
  /// then sends those messages again on the next connection).
  @discardableResult
  public func acknowledge(_ packetIDs: [UInt16]) -> Bool {
    guard !packetIDs.isEmpty else { return true }
    return write(packetIDs.flatMap { MQTTEncode.puback(packetID: $0) })
  }

  @discardableResult
  public func publish(topic: String, payload: [UInt8], qos: UInt8, packetID: UInt16?, retain: Bool = false) -> Bool {
    write(MQTTEncode.publish(topic: topic, payload: payload, qos: qos, packetID: packetID, retain: retain))
  }

  /// A normal DISCONNECT (the session stays for `sessionExpiry`), then the socket closes.
  public func disconnect() {
    _ = write(MQTTEncode.disconnect)
    close(reason: "disconnected")
  }

  /// Ends the connection without a DISCONNECT, as a dropped link would.
  public func close(reason: String) {
    let wasOpen = state.withLock {
      defer { open = false }
      if open { closeReason = reason }
      return open
    }
    if wasOpen { socket?.shutDown() }
  }

  func write(_ bytes: [UInt8]) -> Bool {
    state.withLock {
      guard open, let socket, socket.write(bytes) else { return false }
      lastWrite = MonotonicClock.now()
      return true
    }
  }

  func deliver(_ event: Event) { handler(event) }

  // The reader's state, read and changed under `state`.
  var closeReasonText: String { closeReason ?? "closed" }
  func storeSuback(_ id: UInt16, _ codes: [UInt8]) { subacks[id] = codes }
  func clearPing() { pingSentAt = nil }
  func markPingSent(_ now: Double) { pingSentAt = now }

  /// Whether a PINGREQ is due (nothing written for half the keep-alive, none outstanding),
  /// and whether one outstanding is overdue.
  func pingState(now: Double, keepAlive: Double) -> (due: Bool, overdue: Bool) {
    if let sent = pingSentAt { return (false, now - sent > keepAlive) }
    return (now - lastWrite >= keepAlive / 2, false)
  }
}
