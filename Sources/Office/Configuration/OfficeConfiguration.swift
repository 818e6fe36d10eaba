import ConfigurationFile
import FoundationEssentials
import OfficeCore

/// dashpilot-officed's configuration (`/etc/dashpilot/officed.conf`, documented key by key
/// in config/officed.conf): the broker and how the workers share its subscription, the
/// database, and the batching. The command line's `--broker`, `--database` and `--workers`
/// override the file.
public struct OfficeConfiguration: Sendable, Hashable {
  public var host = "localhost"
  public var port = 1883
  public var topicPrefix = "dashpilot/+"
  public var group = "office"
  public var clientID = "dashpilot-office"
  public var username: String?
  public var passwordFile: String?
  public var keepAlive = 30
  public var sessionExpiry = 604_800
  public var database = "dbname=dashpilot"
  public var workers = 2
  public var batchSize = 2000
  public var batchDelay = 0.05
  public var maximumPayload = 4_194_304
  public var monthsAhead = 2

  public static let defaultPath = "/etc/dashpilot/officed.conf"

  public init() {}

  /// The keys, by section, in the file's spelling (CamelCase, as the box's file).
  static let keys: [String: [String]] = [
    "Broker": [
      "Host", "Port", "TopicPrefix", "Group", "ClientID", "Username", "PasswordFile", "KeepAlive", "SessionExpiry",
    ],
    "Database": ["Connection"],
    "Ingest": ["Workers", "BatchSize", "BatchDelay", "MaximumPayload", "MonthsAhead"],
  ]

  /// The sections and their keys, in the file's order.
  public static var sections: [(section: String, keys: [String])] {
    ["Broker", "Database", "Ingest"].map { ($0, keys[$0] ?? []) }
  }

  /// The topics the workers subscribe to and read vehicles from.
  public var topics: BoxTopics { get throws { try BoxTopics(pattern: topicPrefix) } }

  /// The client id of worker `index` (1-based): fixed, so a restarted worker takes up its
  /// own session and the messages the broker kept for it.
  public func clientID(ofWorker index: Int) -> String { "\(clientID)-\(index)" }

  /// Reads `path` over the defaults; a missing file at the default path is the defaults.
  public static func load(path: String?) throws(ConfigurationError) -> OfficeConfiguration {
    let file = path ?? defaultPath
    if path == nil, !FileManager.default.fileExists(atPath: file) { return OfficeConfiguration() }
    let entries: [ConfigurationEntry]
    switch ConfigurationFileReader.read(path: file) {
    case .success(let read): entries = read
    case .failure(let error): throw error
    }
    var configuration = OfficeConfiguration()
    var seen: Set<String> = []
    for entry in entries {
      let fail = { (message: String) in
        ConfigurationError(file: file, line: entry.line, key: "[\(entry.section)] \(entry.key)", message)
      }
      guard let known = keys[entry.section] else {
        throw fail("is in no section dashpilot-officed knows (Broker, Database, Ingest)")
      }
      guard known.contains(entry.key) else {
        throw fail("is not a key of [\(entry.section)]; it has \(known.joined(separator: ", "))")
      }
      guard seen.insert("\(entry.section).\(entry.key)").inserted else { throw fail("is set twice") }
      do {
        try configuration.set(section: entry.section, key: entry.key, value: entry.value)
      } catch {
        throw fail(error.description)
      }
    }
    return configuration
  }

  struct BadValue: Error {
    var description: String
  }

  mutating func set(section: String, key: String, value: String) throws(BadValue) {
    func integer(_ range: ClosedRange<Int>) throws(BadValue) -> Int {
      guard let number = Int(value), range.contains(number) else {
        throw BadValue(
          description: "\"\(value)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    switch (section, key) {
    case ("Broker", "Host"):
      guard !value.isEmpty else { throw BadValue(description: "must name the broker") }
      host = value
    case ("Broker", "Port"): port = try integer(1...65_535)
    case ("Broker", "TopicPrefix"):
      do { _ = try BoxTopics(pattern: value) } catch { throw BadValue(description: error.description) }
      topicPrefix = value
    case ("Broker", "Group"):
      guard !value.isEmpty, !value.contains(where: { "/+#".contains($0) }) else {
        throw BadValue(description: "\"\(value)\" must be one topic level (no /, + or #)")
      }
      group = value
    case ("Broker", "ClientID"):
      guard !value.isEmpty else { throw BadValue(description: "must not be empty") }
      clientID = value
    case ("Broker", "Username"): username = value.isEmpty ? nil : value
    case ("Broker", "PasswordFile"): passwordFile = value.isEmpty ? nil : value
    case ("Broker", "KeepAlive"): keepAlive = try integer(5...3600)
    case ("Broker", "SessionExpiry"): sessionExpiry = try integer(60...4_294_967_295)
    case ("Database", "Connection"): database = value
    case ("Ingest", "Workers"): workers = try integer(1...64)
    case ("Ingest", "BatchSize"): batchSize = try integer(1...10_000)
    case ("Ingest", "BatchDelay"):
      guard let seconds = Double(value), seconds >= 0, seconds <= 10 else {
        throw BadValue(description: "\"\(value)\" must be seconds from 0 to 10")
      }
      batchDelay = seconds
    case ("Ingest", "MaximumPayload"): maximumPayload = try integer(1024...268_435_455)
    case ("Ingest", "MonthsAhead"): monthsAhead = try integer(0...24)
    default: throw BadValue(description: "is not a key")
    }
  }

  /// The password: the first line of `PasswordFile`.
  public func password() throws(ConfigurationError) -> String? {
    guard let passwordFile else { return nil }
    guard let data = FileManager.default.contents(atPath: passwordFile) else {
      throw ConfigurationError(key: "[Broker] PasswordFile", "\(passwordFile) cannot be read")
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
  }
}
