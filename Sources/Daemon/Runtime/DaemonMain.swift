import ConfigurationFile
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// dashpilotd's start-up: options, configuration, logging, the socket, the components,
/// then the loop. Every failure before READY=1 ends the process with a sentence and a
/// distinct status; the daemon never runs half-configured.
public enum DaemonMain {
  /// Exit statuses: 0 stopped cleanly, 1 could not start, 2 usage, 78 configuration
  /// (EX_CONFIG; the unit's RestartPreventExitStatus keeps systemd from retrying it).
  public enum ExitStatus {
    public static let success: Int32 = 0
    public static let startFailed: Int32 = 1
    public static let usage: Int32 = 2
    public static let configuration: Int32 = 78
  }

  public static func run(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    makeComponents: ComponentFactory = { _ in [] }
  ) -> Int32 {
    let options: DaemonOptions
    switch DaemonOptions.parse(arguments, workingDirectory: FileManager.default.currentDirectoryPath) {
    case .failure(let error):
      printError("dashpilotd: \(error)\nRun 'dashpilotd --help' for the options.")
      return ExitStatus.usage
    case .success(let parsed): options = parsed
    }
    if options.showHelp {
      print(DaemonOptions.usage)
      return ExitStatus.success
    }
    if options.showVersion {
      print("dashpilotd \(DashPilotVersion.string)")
      return ExitStatus.success
    }
    let logger = LoggerSelection.standard(environment: environment)
    let loaded: ConfigurationLoader.Loaded
    switch ConfigurationLoader.load(options: options) {
    case .failure(let error):
      logger.error("configuration error: \(error)", fields: LogFields(reason: "configuration"))
      return ExitStatus.configuration
    case .success(let result): loaded = result
    }
    let configuration = loaded.configuration
    logger.notice(
      "dashpilotd \(DashPilotVersion.string) starting (pid \(getpid()), configuration \(loaded.file ?? "built-in defaults"), gpsd \(configuration.gpsd), database \(configuration.databasePath))"
    )
    if !configuration.places.isEmpty {
      logger.info("places: \(configuration.places.count) read from \(configuration.placesFile)")
    }
    for warning in loaded.warnings { logger.warning(warning, fields: LogFields(reason: "configuration")) }

    let socketGID: gid_t
    if let groupName = configuration.socketGroup {
      guard let gid = GroupDatabase.groupID(named: groupName) else {
        let error = ConfigurationError(
          file: loaded.file, key: "SocketGroup", "the group \"\(groupName)\" does not exist")
        logger.error("configuration error: \(error)", fields: LogFields(reason: "configuration"))
        return ExitStatus.configuration
      }
      socketGID = gid
    } else {
      socketGID = getegid()
    }

    let notifier = SystemdNotifier()
    do {
      let signals = try SignalPipe()
      // The machine's clocks: the one place the daemon chooses them.
      let loop = try EventLoop(clock: LoopClock())
      let listener = try ListeningSocket.create(path: configuration.socketPath, group: socketGID)
      let context = DaemonContext(
        configuration: configuration, configurationFile: loaded.file, logger: logger, notifier: notifier, loop: loop)
      let components: [any DaemonComponent]
      do {
        components = try makeComponents(configuration)
      } catch {
        listener.close()
        throw StartupError("the components could not be made: \(error)")
      }
      let runtime: DaemonRuntime
      do {
        runtime = try DaemonRuntime(context: context, loop: loop, components: components, signals: signals)
      } catch {
        listener.close()
        throw error
      }
      try runtime.run(listener: listener, policy: AccessPolicy(daemonUID: geteuid(), socketGID: socketGID))
      return ExitStatus.success
    } catch {
      logger.error("could not start: \(error)", fields: LogFields(reason: "startup"))
      notifier.status("Could not start: \(error)")
      return ExitStatus.startFailed
    }
  }

  static func printError(_ text: String) {
    StandardError.write(text + "\n")
  }
}
