import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a fleet back end makes of everything `mosquitto_sub` received: the queued messages
/// (`samples`, `shift`, `session`, `events`) parsed, and the set de-duplicated by idempotency
/// key the way the documented consumer does it (keep the first copy of each key), in
/// sequence order.
struct UplinkFleetDelivery {
  struct Message {
    var kind: String
    var key: String
    var sequence: Int
    var shift: Int?
    var json: [String: Any]
    var payload: String
  }

  /// Every queued message received, duplicates included, in arrival order.
  let all: [Message]
  /// The first copy of each key, sorted by sequence.
  let unique: [Message]

  init(_ received: [(topic: String, payload: String)]) {
    var all: [Message] = []
    for (topic, payload) in received {
      let kind = String(topic.split(separator: "/").last ?? "")
      guard ["samples", "shift", "session", "events"].contains(kind),
        let json = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any],
        let key = json["key"] as? String, let sequence = json["sequence"] as? Int
      else { continue }
      all.append(
        Message(kind: kind, key: key, sequence: sequence, shift: json["shift"] as? Int, json: json, payload: payload))
    }
    var seen = Set<String>()
    self.all = all
    unique = all.filter { seen.insert($0.key).inserted }.sorted { $0.sequence < $1.sequence }
  }

  /// Keys received more than once whose copies are not byte-identical (there must be none:
  /// a payload is fixed when it is queued).
  var keysWithDifferingCopies: [String] {
    var first: [String: String] = [:]
    var differing = Set<String>()
    for message in all {
      if let earlier = first[message.key] {
        if earlier != message.payload { differing.insert(message.key) }
      } else {
        first[message.key] = message.payload
      }
    }
    return differing.sorted()
  }

  /// How many copies arrived beyond the first of their key.
  var duplicateCount: Int { all.count - unique.count }

  /// The positions of the de-duplicated `samples` messages of `shift`, in sequence order,
  /// in the store's units ("MILLISECONDS LATE7 LONE7").
  func uniquePositions(shift: Int) -> [String] {
    positions(of: unique.filter { $0.kind == "samples" && $0.shift == shift })
  }

  /// Every position received, duplicates included.
  var allPositions: [String] { positions(of: all.filter { $0.kind == "samples" }) }

  func messages(_ kind: String) -> [Message] { unique.filter { $0.kind == kind } }

  private func positions(of messages: [Message]) -> [String] {
    messages.flatMap { message in
      (message.json["samples"] as? [[String: Any]] ?? []).map { Self.positionKey($0) ?? "unreadable" }
    }
  }

  /// A published position in the store's units: what `UplinkDaemonTests.key(published:)`
  /// gives, without a date formatter per sample (a drive has thousands).
  static func positionKey(_ sample: [String: Any]) -> String? {
    guard let time = sample["time"] as? String, let milliseconds = epochMilliseconds(time),
      let lat = sample["lat"] as? Double, let lon = sample["lon"] as? Double
    else { return nil }
    return UplinkDaemonTests.key(
      milliseconds: milliseconds, latitudeE7: Int64((lat * 1e7).rounded()), longitudeE7: Int64((lon * 1e7).rounded()))
  }

  /// "2024-05-01T10:00:05.250Z" as milliseconds since 1970.
  static func epochMilliseconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[23] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int32? { Int32(String(decoding: bytes[range], as: UTF8.self)) }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
      let minute = number(14..<16), let second = number(17..<19), let millis = number(20..<23)
    else { return nil }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    parts.tm_hour = hour
    parts.tm_min = minute
    parts.tm_sec = second
    return Int64(timegm(&parts)) * 1000 + Int64(millis)
  }
}
