import FoundationEssentials
import Office
import OfficeCore
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Publishes boxes' messages at QoS 1 for the office's tests and benchmark, over the
/// office's own MQTT connection: as many in flight as the broker's receive maximum allows,
/// each kept until its PUBACK, and published again after a reconnection (as a box's outbox
/// does: at least once). `waitUntilAcknowledged` says when the broker has them all.
public final class FleetPublisher: @unchecked Sendable {
  // @unchecked: every member is guarded by `condition`.
  private let options: MQTTConnection.Options
  private let condition = Condition()
  private var connection: MQTTConnection?
  private var window = 20
  private var inFlight: [UInt16: (topic: String, payload: [UInt8])] = [:]
  private var nextID: UInt16 = 1
  private var closed = false
  private var acknowledged = 0

  public init(host: String = "127.0.0.1", port: Int, clientID: String) {
    var options = MQTTConnection.Options(host: host, port: port, clientID: clientID)
    options.cleanStart = true
    options.sessionExpiry = 0
    options.keepAlive = 60
    self.options = options
  }

  /// Connects (again), and publishes again whatever was in flight when the last one ended.
  public func connect() throws {
    let client = MQTTConnection(options: options) { [self] event in
      switch event {
      case .puback(let id, _):
        condition.withLock {
          if inFlight.removeValue(forKey: id) != nil { acknowledged += 1 }
          condition.broadcast()
        }
      case .closed:
        condition.withLock { condition.broadcast() }
      case .publish:
        break
      }
    }
    let accepted = try client.connect()
    let pending = condition.withLock {
      connection = client
      window = max(1, min(accepted.receiveMaximum, 1000))
      return inFlight.sorted { $0.key < $1.key }
    }
    for (id, message) in pending {
      client.publish(topic: message.topic, payload: message.payload, qos: 1, packetID: id)
    }
  }

  /// Publishes one message at QoS 1, waiting while the window is full; reconnects when the
  /// connection ended (retrying until `timeout`).
  public func publish(topic: String, payload: [UInt8], timeout: Double = 60) throws {
    let deadline = Condition.deadline(after: timeout)
    while true {
      let ready: (MQTTConnection, UInt16)? = condition.withLock {
        while inFlight.count >= window, connection?.isOpen == true, condition.wait(until: deadline) {}
        guard let connection, connection.isOpen, inFlight.count < window else { return nil }
        var id = nextID
        while inFlight[id] != nil || id == 0 { id = id == UInt16.max ? 1 : id + 1 }
        nextID = id == UInt16.max ? 1 : id + 1
        inFlight[id] = (topic, payload)
        return (connection, id)
      }
      if let (connection, id) = ready {
        connection.publish(topic: topic, payload: payload, qos: 1, packetID: id)
        return
      }
      guard MonotonicClock.now() < deadline else {
        throw MQTTConnection.Failure("the broker took no message for \(Int(timeout)) s")
      }
      if condition.withLock({ connection?.isOpen != true }) {
        do { try connect() } catch { usleep(200_000) }
      }
    }
  }

  /// Waits until the broker has acknowledged everything published; false on timeout.
  public func waitUntilAcknowledged(timeout: Double) -> Bool {
    let deadline = Condition.deadline(after: timeout)
    while true {
      let (empty, open) = condition.withLock { () -> (Bool, Bool) in
        while !inFlight.isEmpty, connection?.isOpen == true, condition.wait(until: deadline) {}
        return (inFlight.isEmpty, connection?.isOpen == true)
      }
      if empty { return true }
      guard MonotonicClock.now() < deadline else { return false }
      if !open {
        do { try connect() } catch { usleep(200_000) }
      }
    }
  }

  /// Messages the broker has acknowledged so far.
  public var acknowledgedCount: Int { condition.withLock { acknowledged } }

  public func disconnect() {
    condition.withLock { connection }?.disconnect()
  }
}
