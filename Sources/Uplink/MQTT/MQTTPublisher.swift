import CMosquitto
import DashPilotCore
import Dispatch
import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A libmosquitto client that publishes the box's messages to the fleet broker and, with
/// `AcceptCommands=yes`, reads the fleet's commands on `PREFIX/command`.
///
/// The network work runs on a thread of its own: connecting (which blocks on TCP and TLS),
/// reading acknowledgements and reconnecting, so the daemon's state owner never waits on
/// the network. libmosquitto's own `loop_start` thread would do most of this, but it quits
/// for good after a TLS failure (a captive portal, an expired broker certificate), so this
/// thread supervises the connection and retries with back-off whatever went wrong.
/// Everything libmosquitto reports is handed to the owner's queue as an `MQTTEvent`.
///
/// The retained `status` topic says online on every connection and the broker says
/// offline for us (the MQTT last will) if the connection dies; `stop` says offline itself.
///
/// A box that takes commands connects with a persistent session (clean session off, its
/// fixed client id) and subscribes to its command topic at QoS 1 on every connection, so
/// the broker keeps what a dispatcher sends while the car is off and delivers it when the
/// box is back.
public final class MQTTPublisher: @unchecked Sendable {
  // @unchecked: `handle` is used from the owner's thread (publish, disconnect) and the
  // network thread (connect, loop); libmosquitto locks internally for exactly that
  // (`mosquitto_threaded_set`). Every mutable field of ours is behind a mutex (`lifecycle`,
  // `shared.state`).
  private let handle: OpaquePointer
  private let shared: MQTTCallbackBox
  private let unmanagedShared: Unmanaged<MQTTCallbackBox>
  private let configuration: UplinkConfiguration
  private let wake = DispatchSemaphore(value: 0)
  private let networkThreadEnded = DispatchSemaphore(value: 0)
  private let lifecycle = Mutex<(started: Bool, stopped: Bool)>((false, false))

  private static let libraryInitialized: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue

  /// Prepares the client; nothing touches the network until `start`. Throws when
  /// libmosquitto refuses a setting (an unreadable CA file, for one).
  public init(
    configuration: UplinkConfiguration, password: String?, maxInFlight: Int = 16, queue: DispatchQueue,
    clock: @escaping @Sendable () -> Date = Clocks.system.wall, events: @escaping @Sendable (MQTTEvent) -> Void
  ) throws(MQTTError) {
    // Validated here too: the numbers below become C integers, and a bad one must be an
    // error, not a trap.
    do {
      try configuration.validate()
    } catch {
      throw MQTTError(operation: "check the [Uplink] configuration", reason: error.description)
    }
    guard Self.libraryInitialized else {
      throw MQTTError(operation: "initialise libmosquitto", reason: "mosquitto_lib_init failed")
    }
    let encoder = UplinkEncoder(vehicleID: configuration.vehicleID)
    let shared = MQTTCallbackBox(
      queue: queue, events: events, clock: clock, encoder: encoder, statusTopic: configuration.topic(.status),
      commandTopic: configuration.acceptCommands ? configuration.topic(.command) : nil)
    let unmanagedShared = Unmanaged.passRetained(shared)
    let cleanSession = !configuration.acceptCommands
    guard let handle = mosquitto_new(configuration.clientID, cleanSession, unmanagedShared.toOpaque()) else {
      unmanagedShared.release()
      throw MQTTError(operation: "create the MQTT client", reason: String(cString: strerror(errno)))
    }
    self.handle = handle
    self.shared = shared
    self.unmanagedShared = unmanagedShared
    self.configuration = configuration
    do throws(MQTTError) {
      try configure(password: password, maxInFlight: maxInFlight, encoder: encoder)
    } catch {
      mosquitto_destroy(handle)
      unmanagedShared.release()
      throw error
    }
  }

  private func configure(password: String?, maxInFlight: Int, encoder: UplinkEncoder) throws(MQTTError) {
    func check(_ code: Int32, _ operation: String) throws(MQTTError) {
      if code != MOSQ_ERR_SUCCESS.rawValue {
        throw MQTTError(
          operation: operation, reason: Self.describe(code, errno: errno, detail: shared.takeLastLogError()))
      }
    }
    try check(mosquitto_threaded_set(handle, true), "enable threaded use")
    if configuration.acceptCommands {
      // A reply follows the command's PUBACK within milliseconds: with Nagle's algorithm it
      // would wait for the broker to acknowledge that segment (a delayed ACK, 40 ms).
      try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "turn off Nagle's algorithm")
    }
    try check(
      mosquitto_max_inflight_messages_set(handle, UInt32(max(1, min(maxInFlight, 65535)))), "set the in-flight window")
    if let username = configuration.username {
      try check(mosquitto_username_pw_set(handle, username, password), "set the username and password")
    }
    if let caFile = configuration.caFile {
      // libmosquitto only says "invalid function arguments" for a file it cannot open.
      for (key, path) in [
        (UplinkConfiguration.Key.caFile, caFile), (.certFile, configuration.certFile),
        (.keyFile, configuration.keyFile),
      ] {
        if let path, !FileManager.default.isReadableFile(atPath: path) {
          throw MQTTError(operation: "set up TLS", reason: "\(key.rawValue) \(path) cannot be read")
        }
      }
      try check(
        mosquitto_tls_set(handle, caFile, nil, configuration.certFile, configuration.keyFile, nil),
        "set up TLS with \(UplinkConfiguration.Key.caFile.rawValue) \(caFile)")
    }
    let offline = encoder.status(online: false, since: nil)
    try check(
      mosquitto_will_set(handle, configuration.topic(.status), Int32(offline.count), offline, 1, true),
      "set the last will")

    mosquitto_connect_callback_set(handle) { client, context, code in
      guard let client, let context else { return }
      Unmanaged<MQTTCallbackBox>.fromOpaque(context).takeUnretainedValue().connected(client, code: code)
    }
    mosquitto_disconnect_callback_set(handle) { _, context, code in
      guard let context else { return }
      Unmanaged<MQTTCallbackBox>.fromOpaque(context).takeUnretainedValue().disconnected(code: code)
    }
    mosquitto_publish_callback_set(handle) { _, context, messageID in
      guard let context else { return }
      Unmanaged<MQTTCallbackBox>.fromOpaque(context).takeUnretainedValue().acknowledged(messageID)
    }
    mosquitto_message_callback_set(handle) { _, context, message in
      guard let context, let message else { return }
      Unmanaged<MQTTCallbackBox>.fromOpaque(context).takeUnretainedValue().received(message.pointee)
    }
    mosquitto_log_callback_set(handle) { _, context, level, message in
      guard let context, let message, level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0 else { return }
      Unmanaged<MQTTCallbackBox>.fromOpaque(context).takeUnretainedValue().logged(String(cString: message))
    }
  }

  /// Starts the network thread: connect, and keep connecting.
  public func start() {
    let starts = lifecycle.withLock { state in
      guard !state.started, !state.stopped else { return false }
      state.started = true
      return true
    }
    guard starts else { return }
    let thread = NativeThread { [self] in runNetwork() }
    thread.name = "dashpilot-uplink"
    thread.start()
  }

  /// Hands a message to libmosquitto and returns its message id, which a later
  /// `.acknowledged` event names. Safe from any thread.
  public func publish(topic: String, payload: [UInt8], qos: Int, retain: Bool) throws(MQTTError) -> Int32 {
    var messageID: Int32 = 0
    let code = payload.withUnsafeBytes { buffer in
      mosquitto_publish(handle, &messageID, topic, Int32(buffer.count), buffer.baseAddress, Int32(qos), retain)
    }
    guard code == MOSQ_ERR_SUCCESS.rawValue else {
      throw MQTTError(operation: "publish to \(topic)", reason: Self.describe(code, errno: errno, detail: nil))
    }
    return messageID
  }

  /// Says offline on the status topic (waiting briefly for the broker to take it),
  /// disconnects and ends the network thread. Blocks for at most `timeout`. If the thread is
  /// stuck in a connect to an unreachable host, it is abandoned with its client rather than
  /// holding up the daemon's shutdown; returns false then.
  @discardableResult
  public func stop(timeout: TimeInterval = 5) -> Bool {
    let wasRunning = lifecycle.withLock { state in
      defer { state.stopped = true }
      return state.started && !state.stopped
    }
    let deadline = DispatchTime.now() + timeout
    shared.beginStopping()
    guard wasRunning else {
      release()
      return true
    }
    if shared.isConnected {
      let offline = shared.encoder.status(online: false, since: nil)
      if let messageID = try? publish(topic: configuration.topic(.status), payload: offline, qos: 1, retain: true) {
        shared.waitForAcknowledgement(of: messageID, until: DispatchTime.now() + timeout / 2)
      }
    }
    mosquitto_disconnect(handle)
    wake.signal()
    guard networkThreadEnded.wait(timeout: deadline) == .success else { return false }
    release()
    return true
  }

  /// The connection's socket, for tests that cut it from outside (-1 when none).
  var socketDescriptor: Int32 { mosquitto_socket(handle) }

  private func release() {
    shared.close()
    mosquitto_destroy(handle)
    unmanagedShared.release()
  }

  private func runNetwork() {
    var delay = configuration.reconnectDelay
    while !shared.isStopping {
      let code = mosquitto_connect(
        handle, configuration.host, Int32(configuration.port), Int32(configuration.keepalive))
      let connectErrno = errno
      if code == MOSQ_ERR_SUCCESS.rawValue {
        var loopCode: Int32
        repeat {
          loopCode = mosquitto_loop(handle, 1000, 1)
        } while loopCode == MOSQ_ERR_SUCCESS.rawValue
        let loopErrno = errno
        if shared.isStopping { break }
        let wasConnected = shared.takeWasConnected()
        if wasConnected { delay = configuration.reconnectDelay }
        // A lost connection was reported by the disconnect callback, a refusal by the CONNACK
        // callback with the broker's own reason. What is left failed before any CONNACK (a
        // TLS handshake, for one): that is a failed connect.
        if !wasConnected && loopCode != MOSQ_ERR_CONN_REFUSED.rawValue {
          shared.failed(
            reason: "connecting to \(brokerName) failed: "
              + Self.describe(loopCode, errno: loopErrno, detail: shared.takeLastLogError()))
        }
      } else {
        shared.failed(
          reason: "connecting to \(brokerName) failed: "
            + Self.describe(code, errno: connectErrno, detail: shared.takeLastLogError()))
      }
      if shared.isStopping { break }
      _ = wake.wait(timeout: .now() + .seconds(delay))
      delay = min(delay * 2, configuration.reconnectDelayMax)
    }
    networkThreadEnded.signal()
  }

  private var brokerName: String { "\(configuration.host):\(configuration.port)" }

  static func describe(_ code: Int32, errno: Int32, detail: String?) -> String {
    var text: String
    if code == MOSQ_ERR_ERRNO.rawValue {
      text = String(cString: strerror(errno))
    } else {
      text = String(cString: mosquitto_strerror(code))
      if text.hasSuffix(".") { text.removeLast() }
    }
    if let detail { text += " (\(detail))" }
    return text
  }
}
