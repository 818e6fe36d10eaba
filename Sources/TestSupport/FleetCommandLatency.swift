import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Command-to-reply latency through a broker, as a dispatcher sees it: `status` sent,
/// one at a time, each as soon as the last was answered but never sooner than 0.11 s after
/// it (the box takes 10 a second), timed from writing it to `mosquitto_pub` to reading its
/// reply from `mosquitto_sub`. For the fleet command test and `make bench`.
public struct FleetCommandLatency: Sendable {
  /// Seconds, in the order sent.
  public var latencies: [Double]
  /// Replies by outcome: "ok" or the error code.
  public var outcomes: [String: Int]

  public var medianMilliseconds: Double {
    let sorted = latencies.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    return (median * 10_000).rounded() / 10
  }

  public var worstMilliseconds: Double { ((latencies.max() ?? .nan) * 10_000).rounded() / 10 }

  public static func measure(
    _ dispatcher: MosquittoDispatcher, count: Int, idPrefix: String = "latency"
  ) throws -> FleetCommandLatency {
    var figures = FleetCommandLatency(latencies: [], outcomes: [:])
    var lastSent = -Double.infinity
    for index in 0..<count {
      let due = lastSent + 0.11
      let now = MosquittoDispatcher.now()
      if now < due { usleep(useconds_t((due - now) * 1e6)) }
      let id = "\(idPrefix)-\(index)"
      lastSent = dispatcher.send(#"{"v":1,"id":"\#(id)","cmd":"status"}"#)
      guard let reply = dispatcher.reply(to: id, timeout: 30) else {
        throw TestProcessError("no reply to \(id)")
      }
      figures.latencies.append(reply.at - lastSent)
      let outcome =
        reply.json["ok"] as? Bool == true
        ? "ok" : ((reply.json["error"] as? [String: Any])?["code"] as? String ?? "unreadable")
      figures.outcomes[outcome, default: 0] += 1
    }
    return figures
  }
}
