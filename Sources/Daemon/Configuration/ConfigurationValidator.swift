import ConfigurationFile
import DashPilotCore
import FoundationEssentials
import Guidance
import Uplink

/// Applies the file's entries to a configuration: pure, so every rule is tested without a
/// file. The first wrong entry stops it; nothing is half-applied because the caller only
/// gets a configuration back when every entry was good.
public enum ConfigurationValidator {
  /// The sections and keys the file may hold. Matching is exact, as in systemd units.
  public static let knownKeys: [String: [String]] = [
    "GPSD": ["Address"],
    "Capture": [
      "MaximumHorizontalAccuracy", "AssumedAccuracy", "DateByArrival", "MaximumAge", "MaximumImpliedSpeed",
      "MinimumMovement",
    ],
    "Measurement": ["MaximumSampleInterval", "Units"],
    "Store": ["Database", "CommitInterval", "KeepDays", "FreeSpaceFloor"],
    "Control": ["Socket", "SocketGroup", "IdleTimeout", "MaximumClients"],
    "Guidance": ["Mode", "Language", "SpeechCommand"],
    "Routing": ["Provider", "URL"],
    "Shift": ["Start", "EndAfterStop", "StartDistance", "EndAtPlace", "EndAfterStopAtPlace"],
    "Stops": ["MinimumStop"],
    "Places": ["File"],
    "Jobs": ["Navigate"],
  ]

  public static func apply(
    _ entries: [ConfigurationEntry], to base: DaemonConfiguration, file: String?
  ) -> Result<DaemonConfiguration, ConfigurationError> {
    var configuration = base
    var seen: [String: Int] = [:]
    var uplinkEntries: [ConfigurationEntry] = []
    for entry in entries {
      let name = "[\(entry.section)] \(entry.key)"
      func failure(_ message: String) -> Result<DaemonConfiguration, ConfigurationError> {
        .failure(ConfigurationError(file: file, line: entry.line, key: entry.key, message))
      }
      guard !entry.section.isEmpty else {
        return failure("a key outside any section; put it under its [Section]")
      }
      // [Uplink] keys are the uplink's own (checked by UplinkConfiguration).
      if entry.section == uplinkSection {
        let key = UplinkConfiguration.Key.named(entry.key)
        if let earlier = uplinkEntries.first(where: { $0.key == entry.key || (key != nil && .named($0.key) == key) }) {
          return failure("set twice (first on line \(earlier.line))")
        }
        uplinkEntries.append(entry)
        continue
      }
      guard let keys = knownKeys[entry.section] else {
        return failure("unknown section [\(entry.section)]; sections are \(knownSections.joined(separator: ", "))")
      }
      guard keys.contains(entry.key) else {
        return failure("unknown key in [\(entry.section)]; its keys are \(keys.joined(separator: ", "))")
      }
      if let earlier = seen[name] {
        return failure("set twice (first on line \(earlier))")
      }
      seen[name] = entry.line
      if let message = set(entry, in: &configuration) { return failure(message) }
    }
    if !uplinkEntries.isEmpty {
      do {
        configuration.uplink = try UplinkConfiguration.fromSection(
          Dictionary(uplinkEntries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
      } catch {
        // Point at the line of the key at fault, or at the section's first line.
        let culprit =
          uplinkEntries.first { $0.key == error.key } ?? uplinkEntries[0]
        return .failure(ConfigurationError(file: file, line: culprit.line, error.description))
      }
    }
    return .success(configuration)
  }

  /// The one warning line for a file whose `[Uplink]` section spells keys as 0.1.0 did
  /// (`vehicle_id=`): each old key, the key it is read as, and its line. Nil when none is.
  public static func deprecatedSpellings(in entries: [ConfigurationEntry], file: String?) -> String? {
    let old = entries.filter { $0.section == uplinkSection }.compactMap { entry in
      UplinkConfiguration.Key.deprecated(entry.key).map { "\(entry.key) (line \(entry.line)) is now \($0.rawValue)" }
    }
    guard !old.isEmpty else { return nil }
    return "\(file ?? "the configuration"): [Uplink] keys in 0.1.0's deprecated spelling, read as their new names: "
      + old.joined(separator: ", ") + "; write the new names, as dashpilot.conf(5) lists them"
  }

  /// The section read by `UplinkConfiguration.fromSection` rather than by `knownKeys`.
  public static let uplinkSection = "Uplink"

  /// Every section the file may hold, sorted, for the unknown-section message.
  public static var knownSections: [String] { (Array(knownKeys.keys) + [uplinkSection]).sorted() }

  /// Sets one entry; returns what was wrong with its value, or nil.
  static func set(_ entry: ConfigurationEntry, in configuration: inout DaemonConfiguration) -> String? {
    let value = entry.value
    switch (entry.section, entry.key) {
    case ("GPSD", "Address"):
      guard let address = ServiceAddress(parsing: value) else {
        return "\"\(value)\" is not HOST:PORT (such as localhost:2947 or [::1]:2947)"
      }
      configuration.gpsd = address
    case ("Capture", "MaximumHorizontalAccuracy"):
      return number(value, "metres", 1...10_000) { configuration.filter.maximumHorizontalAccuracy = $0 }
    case ("Capture", "AssumedAccuracy"):
      if value == "off" {
        configuration.filter.assumedAccuracy = nil
        return nil
      }
      return number(value, "metres (or off)", 1...1_000) { configuration.filter.assumedAccuracy = $0 }
    case ("Capture", "DateByArrival"):
      guard let rule = ArrivalDating(rawValue: value) else {
        return "\"\(value)\" is not synchronised, always or never"
      }
      configuration.filter.dateByArrival = rule
    case ("Capture", "MaximumAge"):
      return number(value, "seconds", 0.1...86_400) { configuration.filter.maximumAge = $0 }
    case ("Capture", "MaximumImpliedSpeed"):
      return number(value, "metres per second", 1...1_000) { configuration.filter.maximumImpliedSpeed = $0 }
    case ("Capture", "MinimumMovement"):
      return number(value, "metres", 0...1_000) { configuration.filter.minimumMovement = $0 }
    case ("Measurement", "MaximumSampleInterval"):
      return number(value, "seconds", 1...86_400) { configuration.maximumSampleInterval = $0 }
    case ("Measurement", "Units"):
      guard let unit = DistanceUnit(name: value) else { return "\"\(value)\" is not miles or kilometres" }
      configuration.units = unit
    case ("Store", "Database"):
      guard value.hasPrefix("/") else { return "\"\(value)\" is not an absolute path" }
      configuration.databasePath = value
    case ("Store", "CommitInterval"):
      return number(value, "seconds", 0.1...60) { configuration.commitInterval = $0 }
    case ("Store", "KeepDays"):
      guard value != "forever" else {
        configuration.keepDays = nil
        return nil
      }
      guard let days = Int(value), (1...36_500).contains(days) else {
        return "\"\(value)\" is not a whole number of days from 1 to 36500, or forever"
      }
      configuration.keepDays = days
    case ("Store", "FreeSpaceFloor"):
      guard let floor = FreeSpaceFloor(parsing: value) else {
        return "\"\(value)\" is not a percentage of the file system (0% to 90%) or a size "
          + "(512M, 2G; K, M, G are powers of 1024)"
      }
      configuration.freeSpaceFloor = floor
    case ("Control", "Socket"):
      if let problem = socketPathProblem(value) { return problem }
      configuration.socketPath = value
    case ("Control", "SocketGroup"):
      guard value.isEmpty || isGroupName(value) else { return "\"\(value)\" is not a group name" }
      configuration.socketGroup = value.isEmpty ? nil : value
    case ("Control", "IdleTimeout"):
      return number(value, "seconds", 0.1...86_400) { configuration.idleTimeout = $0 }
    case ("Control", "MaximumClients"):
      guard let count = Int(value), (1...1_000).contains(count) else {
        return "\"\(value)\" is not a whole number from 1 to 1000"
      }
      configuration.maximumClients = count
    case ("Guidance", "Mode"):
      guard let mode = TravelMode(rawValue: value) else { return "\"\(value)\" is not driving or walking" }
      configuration.guidanceMode = mode
    case ("Guidance", "Language"):
      guard let language = AnnouncementLanguage(rawValue: value) else {
        return "\"\(value)\" is not english or korean"
      }
      configuration.language = language
    case ("Guidance", "SpeechCommand"):
      configuration.speechCommand = value.isEmpty ? nil : value
    case ("Routing", "Provider"):
      guard let provider = RoutingProviderKind(rawValue: value) else { return "\"\(value)\" is not valhalla or osrm" }
      configuration.routingProvider = provider
    case ("Shift", "Start"):
      guard let mode = ShiftStartMode(rawValue: value) else { return "\"\(value)\" is not movement or manual" }
      configuration.shiftStart = mode
    case ("Shift", "EndAfterStop"):
      guard let seconds = DurationText.seconds(value), (60...86_400).contains(seconds) else {
        return "\"\(value)\" is not a duration from 1min to 24h (such as 45min, 2700s or 1h)"
      }
      configuration.shiftPolicy.endAfterStop = seconds
    case ("Shift", "EndAtPlace"):
      configuration.endAtPlace = value.isEmpty ? nil : value
    case ("Shift", "EndAfterStopAtPlace"):
      guard let seconds = DurationText.seconds(value), (60...86_400).contains(seconds) else {
        return "\"\(value)\" is not a duration from 1min to 24h (such as 2min, 120s or 0.5h)"
      }
      configuration.shiftPolicy.endAfterStopAtPlace = seconds
    case ("Stops", "MinimumStop"):
      guard let seconds = DurationText.seconds(value), (10...86_400).contains(seconds) else {
        return "\"\(value)\" is not a duration from 10s to 24h (such as 2min, 120s or 0.5h)"
      }
      configuration.minimumStop = seconds
    case ("Jobs", "Navigate"):
      switch value.lowercased() {
      case "yes", "true", "on", "1": configuration.navigateToJobs = true
      case "no", "false", "off", "0": configuration.navigateToJobs = false
      default: return "\"\(value)\" is neither yes nor no"
      }
    case ("Places", "File"):
      guard value.hasPrefix("/") else { return "\"\(value)\" is not an absolute path" }
      configuration.placesFile = value
    case ("Shift", "StartDistance"):
      return number(value, "metres", 100...10_000) { configuration.shiftPolicy.startDistance = $0 }
    case ("Routing", "URL"):
      guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme),
        url.host != nil
      else { return "\"\(value)\" is not an http:// or https:// URL" }
      configuration.routingURL = value
    default:
      return "unknown key"
    }
    return nil
  }

  /// The one reason a socket path cannot be used, or nil.
  public static func socketPathProblem(_ path: String) -> String? {
    guard path.hasPrefix("/") else { return "\"\(path)\" is not an absolute path" }
    guard path.utf8.count <= 107 else {
      return "the socket path is longer than 107 bytes, the limit of a Unix socket address"
    }
    return nil
  }

  static func isGroupName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, text.utf8.count <= 32 else { return false }
    return first != "-"
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
      }
  }

  private static func number(
    _ text: String, _ unit: String, _ range: ClosedRange<Double>, _ assign: (Double) -> Void
  ) -> String? {
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      let (lowest, highest) = (FixedDecimal.shortest(range.lowerBound), FixedDecimal.shortest(range.upperBound))
      return "\"\(text)\" is not a number of \(unit) from \(lowest) to \(highest)"
    }
    assign(value)
    return nil
  }
}
