import ConfigurationFile
import FoundationEssentials
import PlatformSupport

/// dashpilot-officed's command line: a command (the service by default) and the options
/// that override the configuration file. Workers are started with the same options, so
/// every process of the service reads its configuration the one way.
public struct OfficeOptions: Sendable {
  public enum Command: Sendable, Hashable {
    case serve
    case worker(index: Int)
    case status(json: Bool)
    case report(vehicle: String, shift: Int64, output: String?)
    case migrate
    case help
    case version
  }

  public var command = Command.serve
  public var configPath: String?
  public var broker: (host: String, port: Int)?
  public var database: String?
  public var workers: Int?

  public static let usage = """
    USAGE: dashpilot-officed [--config FILE] [--broker HOST:PORT] [--database CONNINFO] [--workers N]
           dashpilot-officed status [--json] [--config FILE] [--database CONNINFO]
           dashpilot-officed report VEHICLE SHIFT [-o FILE] [--config FILE] [--database CONNINFO]
           dashpilot-officed migrate [--config FILE] [--database CONNINFO]

    The office: every box's shifts, samples, stops, sessions, jobs and events from the
    fleet's MQTT broker into PostgreSQL with PostGIS, each message stored once, in one
    transaction with its batch, and acknowledged to the broker only after that commit.
    Normally started by systemd (systemctl start dashpilot-officed).

    COMMANDS:
      (none)              Run the service: N worker processes sharing one persistent
                          subscription ($share/GROUP/PREFIX/...).
      status              Lag, messages and samples a second, holes in the boxes'
                          sequences, rejected messages, and each worker.
      report              Draw a shift from the office's rows as one self-contained
                          SVG (as dashpilotctl report draws it on the box); default
                          file shift-VEHICLE-SHIFT.svg, -o - for standard output.
      migrate             Bring the database's schema up to date and stop.

    OPTIONS:
      --config FILE       Configuration file (default /etc/dashpilot/officed.conf; a
                          missing default file means built-in defaults).
      --broker HOST:PORT  The MQTT 5 broker (default localhost:1883).
      --database CONNINFO A libpq connection string (default dbname=dashpilot).
      --workers N         Worker processes (default 2).
      --version           Show the version.
      -h, --help          Show this help.
    """

  public static func parse(_ arguments: [String]) throws(UsageError) -> OfficeOptions {
    var cursor = ArgumentCursor(arguments, command: "dashpilot-officed")
    var options = OfficeOptions()
    if cursor.flag("-h", "--help") { options.command = .help }
    if cursor.flag("--version") { options.command = .version }
    let json = cursor.flag("--json")
    options.configPath = try cursor.option("--config", value: "a FILE")
    if let broker = try cursor.option("--broker", value: "HOST:PORT") {
      guard let colon = broker.lastIndex(of: ":"), let port = Int(broker[broker.index(after: colon)...]),
        (1...65_535).contains(port), colon > broker.startIndex
      else { throw UsageError("--broker needs HOST:PORT, such as localhost:1883", command: "dashpilot-officed") }
      // An IPv6 literal comes in brackets: [::1]:1883.
      options.broker = (String(broker[..<colon].filter { $0 != "[" && $0 != "]" }), port)
    }
    options.database = try cursor.option("--database", value: "a CONNINFO")
    if let workers = try cursor.option("--workers", value: "a number") {
      guard let count = Int(workers), (1...64).contains(count) else {
        throw UsageError("--workers needs a number from 1 to 64", command: "dashpilot-officed")
      }
      options.workers = count
    }
    let output = try cursor.option("-o", value: "a FILE")
    guard options.command == .serve else { return options }
    switch try cursor.positional() {
    case nil: break
    case "status": options.command = .status(json: json)
    case "migrate": options.command = .migrate
    case "worker":
      guard let index = Int(try cursor.requiredPositional("the worker's number")), index >= 1 else {
        throw UsageError("worker needs its number", command: "dashpilot-officed")
      }
      options.command = .worker(index: index)
    case "report":
      let vehicle = try cursor.requiredPositional("the vehicle")
      guard let shift = Int64(try cursor.requiredPositional("the shift")) else {
        throw UsageError("report needs VEHICLE SHIFT, the shift a number", command: "dashpilot-officed report")
      }
      options.command = .report(vehicle: vehicle, shift: shift, output: output)
    case let other?:
      throw UsageError(
        "unknown command \"\(other)\"; the commands are status, report and migrate",
        command: "dashpilot-officed")
    }
    try cursor.finish()
    return options
  }

  /// The file's configuration with this command line's values over it.
  public func configuration() throws(ConfigurationError) -> OfficeConfiguration {
    var configuration = try OfficeConfiguration.load(path: configPath)
    if let broker {
      configuration.host = broker.host
      configuration.port = broker.port
    }
    if let database { configuration.database = database }
    if let workers { configuration.workers = workers }
    return configuration
  }

  /// What a worker is started with: its command, then the options this process was given.
  public func workerArguments(index: Int) -> [String] {
    var arguments = ["worker", String(index)]
    if let configPath { arguments += ["--config", configPath] }
    if let broker { arguments += ["--broker", "\(broker.host):\(broker.port)"] }
    if let database { arguments += ["--database", database] }
    if let workers { arguments += ["--workers", String(workers)] }
    return arguments
  }
}
