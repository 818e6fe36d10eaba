import Capture
import DashPilotCore
import FoundationEssentials
import Guidance
import Store
import Uplink

/// Everything the daemon is configured with: a plain value, built from the defaults, then
/// the file, then the command line, and checked as a whole before anything starts.
public struct DaemonConfiguration: Sendable, Hashable {
  public var gpsd: ServiceAddress = ServiceAddress(host: "localhost", port: 2947)
  public var filter = RouteSampleFilter.Configuration()
  public var units: DistanceUnit = .miles
  public var databasePath = "/var/lib/dashpilot/dashpilot.sqlite"
  /// How long a kept fix may wait in memory before it is committed: what a power cut or a
  /// SIGKILL can lose, traded against what each commit writes to the card.
  public var commitInterval: TimeInterval = 1
  /// `[Store] KeepDays=`: a completed shift is deleted this many days after it ended (with
  /// an uplink, once the broker has acknowledged it). Nil, the default, keeps every shift.
  public var keepDays: Int?
  /// `[Store] FreeSpaceFloor=`: the room the card keeps (see `FreeSpaceFloor`).
  public var freeSpaceFloor = FreeSpaceFloor.default
  public var socketPath = "/run/dashpilot/control.sock"
  /// The group the socket belongs to; nil keeps the daemon's own group (the unit's
  /// `Group=dashpilot`).
  public var socketGroup: String?
  /// A client that sends no complete request for this long is told so and closed.
  public var idleTimeout: TimeInterval = 30
  /// Connections beyond this are answered `busy` and closed at once.
  public var maximumClients = 64
  public var guidanceMode: TravelMode = .driving
  public var language: AnnouncementLanguage = .english
  public var routingProvider: RoutingProviderKind = .valhalla
  public var routingURL = "http://localhost:8002"
  /// A command the announcements are piped to (text on standard input); nil is silent.
  public var speechCommand: String?
  /// The fleet uplink (the `[Uplink]` section); nil, the default, leaves it off.
  public var uplink: UplinkConfiguration?
  /// How shifts start (`[Shift] Start=`): by hand unless the file says movement (the
  /// shipped file does), so a daemon run without one, or upgraded with a configuration
  /// edited before shifts could start by themselves, records as it always did.
  public var shiftStart: ShiftStartMode = .manual
  /// When a shift starts and ends by itself with `Start=movement` (`[Shift]`); its
  /// `endPlace` is the place `endAtPlace` names, found when the places are read.
  public var shiftPolicy = ShiftPolicy.Configuration()
  /// `[Shift] EndAtPlace=`: the name of the place where a shift ends after
  /// `EndAfterStopAtPlace` standing; nil: none.
  public var endAtPlace: String?
  /// `[Stops] MinimumStop=`: standing still shorter than this is a halt (a red light, a
  /// queue), not a stop.
  public var minimumStop = StopPolicy.defaultMinimumStop
  /// `[Places] File=`: the places file (`PlacesFile`). At the default path a missing file
  /// means no places; a file named elsewhere must exist.
  public var placesFile = PlacesFileReader.defaultPath
  /// The places read from `placesFile` at start-up (`ConfigurationLoader`): they name the
  /// stops inside them.
  public var places: [Place] = []
  /// `[Jobs] Navigate=`: when a job is visited, navigate to the next one in the queue.
  public var navigateToJobs = false

  public init() {}

  /// The stop policy `shift show` reads a shift's stops with, as replay reads a log's: the
  /// minimum stop and capture's own stationary thresholds (a stored shift is read with its
  /// own continuity, `StoredShift.calculator`).
  public var stopPolicy: StopPolicy {
    StopPolicy(
      minimumStop: minimumStop, standingSpeed: filter.stationarySpeed,
      standingErrorFraction: filter.stationaryErrorFraction,
      calculator: RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval))
  }

  /// The store's batching for `commitInterval`: 32 fixes a second of interval at most, so a
  /// longer interval batches more rather than committing on the count.
  public var batchPolicy: SampleBatchPolicy {
    SampleBatchPolicy(
      maximumPendingAge: commitInterval, maximumPendingCount: 32 * max(1, Int(commitInterval.rounded(.up))))
  }

  public static let defaultConfigurationPath = "/etc/dashpilot/dashpilot.conf"

  /// `maximumSampleInterval` lives in the filter's configuration so the speed rule and the
  /// measurement share one number.
  public var maximumSampleInterval: TimeInterval {
    get { filter.maximumSampleInterval }
    set { filter.maximumSampleInterval = newValue }
  }
}

/// `[Shift] Start=`.
public enum ShiftStartMode: String, Sendable, Hashable, CaseIterable {
  /// A shift starts when the vehicle moves, and ends after it stands or goes without a fix
  /// (`ShiftPolicy`); `shift start` and `shift end` still work. Capture runs all the time.
  case movement
  /// Only `dashpilotctl shift start` starts one, and only `shift end` ends it; capture runs
  /// only while one is open.
  case manual
}

public enum AnnouncementLanguage: String, Sendable, Hashable, CaseIterable {
  case english
  case korean
}

public enum RoutingProviderKind: String, Sendable, Hashable, CaseIterable {
  case valhalla
  case osrm
}

/// HOST:PORT of a TCP service; IPv6 literals in brackets (`[::1]:2947`).
public struct ServiceAddress: Sendable, Hashable, CustomStringConvertible {
  public var host: String
  public var port: UInt16

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  public init?(parsing text: String) {
    var host: Substring
    var portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      if host.contains(":") { return nil }
    }
    guard !host.isEmpty, !host.contains(where: { $0.isWhitespace }),
      let port = UInt16(portText), port > 0
    else { return nil }
    self.init(host: String(host), port: port)
  }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
