import Capture
import ConfigurationFile
import FoundationEssentials
import PlatformSupport

/// dashpilotd's command line. Values given here override the file's.
public struct DaemonOptions: Sendable, Hashable {
  public var configPath: String?
  public var databasePath: String?
  public var socketPath: String?
  public var gpsd: ServiceAddress?
  /// Accepted for the documented interface: the daemon never forks, so it always runs in
  /// the foreground (systemd's `Type=notify` wants exactly that).
  public var foreground = false
  public var showHelp = false
  public var showVersion = false

  public init() {}

  public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
  }

  public static let usage = """
    USAGE: dashpilotd [--config FILE] [--database PATH] [--socket PATH] [--gpsd HOST:PORT] [--foreground]

    Records GPS fixes from gpsd into capture sessions and shifts, measures the
    driver's mileage honestly, and answers dashpilotctl over a Unix socket.
    Normally started by systemd (systemctl start dashpilotd); run it by hand with
    your own paths to try it without installing.

    OPTIONS:
      --config FILE       Configuration file (default /etc/dashpilot/dashpilot.conf;
                          a missing default file means built-in defaults, a missing
                          file named here stops start-up).
      --database PATH     SQLite database (default /var/lib/dashpilot/dashpilot.sqlite).
      --socket PATH       Control socket (default /run/dashpilot/control.sock).
      --gpsd HOST:PORT    gpsd to read fixes from (default localhost:2947).
      --foreground        Stay in the foreground (it always does; for scripts).
      --version           Show the version.
      -h, --help          Show this help.

    Command-line values override the configuration file's. SIGTERM or SIGINT stops
    the daemon cleanly; SIGHUP reloads nothing (restart it to apply a changed file).
    """

  /// Parses the arguments after the program name (with `ArgumentCursor`, as dashpilotctl
  /// does); relative paths are made absolute against `workingDirectory`.
  public static func parse(_ arguments: [String], workingDirectory: String) -> Result<DaemonOptions, UsageError> {
    var cursor = ArgumentCursor(arguments, command: "dashpilotd")
    var options = DaemonOptions()
    func absolute(_ path: String) -> String {
      path.hasPrefix("/") ? path : URL(fileURLWithPath: workingDirectory).appendingPathComponent(path).path
    }
    do throws(PlatformSupport.UsageError) {
      options.showHelp = cursor.flag("-h", "--help")
      options.showVersion = cursor.flag("--version")
      options.foreground = cursor.flag("--foreground")
      options.configPath = try cursor.option("--config", value: "a FILE").map(absolute)
      options.databasePath = try cursor.option("--database", value: "a PATH").map(absolute)
      options.socketPath = try cursor.option("--socket", value: "a PATH").map(absolute)
      if let text = try cursor.option("--gpsd", value: "HOST:PORT") {
        guard let address = ServiceAddress(parsing: text) else {
          return .failure(UsageError(description: "--gpsd: \"\(text)\" is not HOST:PORT (such as localhost:2947)"))
        }
        options.gpsd = address
      }
      try cursor.finish()
    } catch {
      return .failure(UsageError(description: error.message))
    }
    return .success(options)
  }
}

/// Builds the configuration start-up runs with: defaults, then the file, then the
/// command line, checked once more as a whole.
public enum ConfigurationLoader {
  public struct Loaded: Sendable, Hashable {
    public var configuration: DaemonConfiguration
    /// The file that was read; nil when the default file was absent and defaults are used.
    public var file: String?
    /// What start-up logs as warnings: the file works, but says something in a way that is
    /// going away (0.1.0's `[Uplink]` spellings).
    public var warnings: [String] = []
  }

  public static func load(
    options: DaemonOptions, defaultPath: String = DaemonConfiguration.defaultConfigurationPath
  ) -> Result<Loaded, ConfigurationError> {
    var configuration = DaemonConfiguration()
    var file: String?
    var warnings: [String] = []
    let path = options.configPath ?? defaultPath
    if options.configPath != nil || FileManager.default.fileExists(atPath: path) {
      switch ConfigurationFileReader.read(path: path) {
      case .failure(let error): return .failure(error)
      case .success(let entries):
        switch ConfigurationValidator.apply(entries, to: configuration, file: path) {
        case .failure(let error): return .failure(error)
        case .success(let applied): configuration = applied
        }
        if let warning = ConfigurationValidator.deprecatedSpellings(in: entries, file: path) {
          warnings.append(warning)
        }
      }
      file = path
    }
    if let database = options.databasePath { configuration.databasePath = database }
    if let socket = options.socketPath {
      if let problem = ConfigurationValidator.socketPathProblem(socket) {
        return .failure(ConfigurationError(key: "--socket", problem))
      }
      configuration.socketPath = socket
    }
    if let gpsd = options.gpsd { configuration.gpsd = gpsd }
    do {
      configuration.places = try PlacesFileReader.places(
        at: configuration.placesFile, missingIsEmpty: configuration.placesFile == PlacesFileReader.defaultPath)
    } catch {
      return .failure(ConfigurationError("places: \(error)"))
    }
    if let name = configuration.endAtPlace {
      guard let place = configuration.places.first(where: { $0.name == name }) else {
        let names = configuration.places.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return .failure(
          ConfigurationError(
            file: file, key: "EndAtPlace",
            "no place is named \"\(name)\" in \(configuration.placesFile)"
              + (names.isEmpty ? " (it holds none)" : " (its places are \(names))")))
      }
      configuration.shiftPolicy.endPlace = place
    }
    return .success(Loaded(configuration: configuration, file: file, warnings: warnings))
  }
}
