import FoundationEssentials
import OfficeCore
import PlatformSupport

extension MQTTConnection {
  /// The reader thread: packets to the handler, SUBACKs to `subscribe`, and the keep-alive
  /// (a PINGREQ when nothing was written for half the interval; the connection is dead when
  /// no PINGRESP came within the interval).
  func read(_ socket: TCPSocket, framer: MQTTFramer, pending: [MQTTFramer.Frame], keepAlive: Double) {
    var framer = framer
    var buffer = [UInt8](repeating: 0, count: 262_144)
    var frames = pending
    var reason = "closed"
    reading: while true {
      for frame in frames {
        do {
          let packet = try MQTTPacket.read(
            first: frame.first, body: frame.body[...], bodyLength: frame.body.count < frame.length ? frame.length : nil)
          if let ended = handle(packet) {
            reason = ended
            break reading
          }
        } catch {
          reason = "the broker sent a malformed packet: \(error)"
          break reading
        }
      }
      frames = []
      if let overdue = keepAliveCheck(keepAlive) {
        reason = overdue
        break
      }
      guard isOpen else {
        reason = state.withLock { closeReasonText }
        break
      }
      guard let count = buffer.withUnsafeMutableBytes({ socket.read(into: $0, timeout: min(1, keepAlive / 2)) })
      else { continue }
      guard count > 0 else {
        reason = isOpen ? "the broker closed the connection" : state.withLock { closeReasonText }
        break
      }
      do {
        frames = try buffer.withUnsafeBytes { try framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      } catch {
        reason = "the broker sent bytes that are not MQTT: \(error)"
        break
      }
    }
    close(reason: reason)
    state.withLock { state.broadcast() }
    deliver(.closed(reason: reason))
  }

  /// Handles one packet; returns why the connection ends, if it does.
  private func handle(_ packet: MQTTPacket) -> String? {
    switch packet {
    case .publish(let publish):
      deliver(.publish(publish))
    case .puback(let id, let code):
      deliver(.puback(packetID: id, reasonCode: code))
    case .suback(let id, let codes):
      state.withLock {
        storeSuback(id, codes)
        state.broadcast()
      }
    case .pingresp:
      state.withLock { clearPing() }
    case .disconnect(let code, let reason):
      return "the broker disconnected: \(MQTTReasonCode.text(code))" + (reason.map { " (\($0))" } ?? "")
    case .connack, .other:
      break
    }
    return nil
  }

  /// A PINGREQ when due; the reason the connection is dead when a PINGRESP is overdue.
  private func keepAliveCheck(_ keepAlive: Double) -> String? {
    let now = MonotonicClock.now()
    let (due, overdue) = state.withLock { pingState(now: now, keepAlive: keepAlive) }
    if overdue { return "no answer to a PINGREQ within \(Int(keepAlive)) s" }
    if due, write(MQTTEncode.pingreq) { state.withLock { markPingSent(now) } }
    return nil
  }
}

/// MQTT 5's reason codes (section 2.4) in words, for the log and status.
public enum MQTTReasonCode {
  public static func text(_ code: UInt8) -> String {
    let names: [UInt8: String] = [
      0x00: "success", 0x04: "disconnect with will", 0x80: "unspecified error", 0x81: "malformed packet",
      0x82: "protocol error", 0x83: "implementation specific error", 0x84: "unsupported protocol version",
      0x85: "client identifier not valid", 0x86: "bad user name or password", 0x87: "not authorized",
      0x88: "server unavailable", 0x89: "server busy", 0x8A: "banned", 0x8B: "server shutting down",
      0x8D: "keep alive timeout", 0x8E: "session taken over", 0x8F: "topic filter invalid",
      0x90: "topic name invalid", 0x93: "receive maximum exceeded", 0x95: "packet too large",
      0x97: "quota exceeded", 0x9C: "use another server", 0x9E: "shared subscriptions not supported",
      0x9F: "connection rate exceeded",
    ]
    return "\(names[code] ?? "reason") (0x\(String(code, radix: 16)))"
  }
}
