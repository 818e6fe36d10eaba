import DashPilotCore
import FoundationEssentials

/// The status in words (`status`) and as JSON (`status --json`).
extension OfficeStatusReport {
  public var lines: [String] {
    var lines = [
      "ingest: \(Self.rate(messagesPerSecond)) messages/s, \(Self.rate(samplesPerSecond)) samples/s over the last "
        + "10 s; lag \(lag.map(Self.age) ?? "none yet") (the newest message's age when committed)",
      "stored: \(Self.count(Double(vehicles))) vehicles, \(Self.count(Double(shifts))) shifts, about "
        + "\(Self.count(Double(samplesEstimate))) samples (office schema version \(schemaVersion))",
    ]
    if let holes {
      lines.append(
        holes.count == 0
          ? "holes: none (every vehicle's sequences are whole)"
          : "holes: \(holes.count) in \(holes.vehicles) \(holes.vehicles == 1 ? "vehicle" : "vehicles"), "
            + "\(holes.missing) \(holes.missing == 1 ? "sequence" : "sequences") not received, the oldest "
            + "\(holes.oldestAge.map(Self.age) ?? "?") old (SELECT * FROM holes)")
    } else {
      lines.append("holes: not counted (the ledger took too long to read; SELECT * FROM holes)")
    }
    if rejected.total == 0 {
      lines.append("rejected: none")
    } else {
      let codes = rejected.byCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      var line = "rejected: \(rejected.total) (\(codes))"
      if let topic = rejected.lastTopic, let reason = rejected.lastReason, let age = rejected.lastAge {
        line += "; the last \(Self.age(age)) ago on \(topic): \(reason)"
      }
      lines.append(line)
    }
    if workers.isEmpty { lines.append("workers: none has started (is dashpilot-officed running?)") }
    for worker in workers { lines.append(Self.line(worker)) }
    return lines
  }

  static func line(_ worker: Worker) -> String {
    var words = ["worker \(worker.index): \(worker.clientID), pid \(worker.pid) on \(worker.host)"]
    guard worker.isAlive else {
      words.append("not heard from for \(age(worker.heartbeatAge))")
      if let error = worker.lastError { words.append("last error: \(error)") }
      return words.joined(separator: ", ")
    }
    words.append(worker.brokerConnected ? "connected" : "not connected to the broker")
    words.append("\(rate(worker.messagesPerSecond)) messages/s")
    words.append("\(count(Double(worker.messages))) messages stored")
    if let commit = worker.lastCommitAge { words.append("last commit \(age(commit)) ago") }
    if let lag = worker.lag { words.append("lag \(age(lag))") }
    if let error = worker.lastError { words.append("last error: \(error)") }
    return words.joined(separator: ", ")
  }

  public var json: String {
    var json = JSONWriter()
    json.beginObject()
    json.integer("schema_version", Int64(schemaVersion))
    json.fixed("messages_per_second", messagesPerSecond, digits: 1)
    json.fixed("samples_per_second", samplesPerSecond, digits: 1)
    json.fixed("lag_s", lag, digits: 3)
    json.integer("vehicles", Int64(vehicles))
    json.integer("shifts", Int64(shifts))
    json.integer("samples_estimate", samplesEstimate)
    if let holes {
      json.beginObject("holes")
      json.integer("count", Int64(holes.count))
      json.integer("vehicles", Int64(holes.vehicles))
      json.integer("missing", holes.missing)
      json.fixed("oldest_age_s", holes.oldestAge, digits: 0)
      json.endObject()
    } else {
      json.string("holes", nil)
    }
    json.beginObject("rejected")
    json.integer("count", Int64(rejected.total))
    json.beginObject("by_code")
    for (code, count) in rejected.byCode.sorted(by: { $0.key < $1.key }) { json.integer(code, Int64(count)) }
    json.endObject()
    json.string("last_topic", rejected.lastTopic)
    json.string("last_reason", rejected.lastReason)
    json.endObject()
    json.beginArray("workers")
    for worker in workers {
      json.beginObject()
      json.integer("worker", Int64(worker.index))
      json.string("client_id", worker.clientID)
      json.string("host", worker.host)
      json.integer("pid", Int64(worker.pid))
      json.bool("alive", worker.isAlive)
      json.bool("broker_connected", worker.brokerConnected)
      json.integer("messages", worker.messages)
      json.integer("samples", worker.samples)
      json.integer("rejected", worker.rejected)
      json.fixed("messages_per_second", worker.messagesPerSecond, digits: 1)
      json.fixed("samples_per_second", worker.samplesPerSecond, digits: 1)
      json.fixed("last_commit_age_s", worker.lastCommitAge, digits: 3)
      json.fixed("lag_s", worker.lag, digits: 3)
      json.string("last_error", worker.lastError)
      json.endObject()
    }
    json.endArray()
    json.endObject()
    return json.text
  }

  /// "1,234.5" below 100, else whole: "12,345".
  static func rate(_ value: Double) -> String {
    FixedDecimal.text(value, digits: value < 100 ? 1 : 0, grouping: ",") ?? "?"
  }

  static func count(_ value: Double) -> String { FixedDecimal.text(value, digits: 0, grouping: ",") ?? "?" }

  /// "0.42 s", "12 s", "3 min", "2 h 05 min", "3 d 4 h".
  static func age(_ seconds: Double) -> String {
    if seconds < 10 { return "\(FixedDecimal.text(max(0, seconds), digits: 2) ?? "?") s" }
    let whole = Int(seconds)
    if whole < 120 { return "\(whole) s" }
    if whole < 7200 { return "\(whole / 60) min" }
    if whole < 172_800 { return "\(whole / 3600) h \(String(format0(whole % 3600 / 60))) min" }
    return "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
  }

  private static func format0(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
