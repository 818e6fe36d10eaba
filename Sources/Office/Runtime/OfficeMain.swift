import ConfigurationFile
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// dashpilot-officed's `main`: the command line to the service, a worker, or a command.
/// Exit status: 0 success, 1 failure (a message says what), 2 usage.
public enum OfficeMain {
  public static let version = DashPilotVersion.string

  public static func run(_ arguments: [String]) -> Int32 {
    let options: OfficeOptions
    do {
      options = try OfficeOptions.parse(arguments)
    } catch {
      StandardError.write("dashpilot-officed: \(error.message)\nRun dashpilot-officed --help for usage.\n")
      return 2
    }
    switch options.command {
    case .help:
      StandardOutput.write(OfficeOptions.usage + "\n")
      return 0
    case .version:
      StandardOutput.write("dashpilot-officed \(version)\n")
      return 0
    default: break
    }
    let configuration: OfficeConfiguration
    do {
      configuration = try options.configuration()
      _ = try configuration.topics
    } catch {
      StandardError.write("dashpilot-officed: \(error)\n")
      return Supervisor.configurationFailure
    }
    switch options.command {
    case .serve:
      let stop = StopSignal.install()
      return Supervisor(options: options, configuration: configuration, stop: stop).run()
    case .worker(let index):
      let stop = StopSignal.install()
      let parent = getppid()
      // A worker outlives no service: when its parent is gone, it stops too.
      let watch = NativeThread {
        while !stop.isSet {
          if getppid() != parent { stop.set() }
          stop.sleep(1)
        }
      }
      watch.name = "parent-watch"
      watch.start()
      do {
        return try IngestWorker(configuration: configuration, index: index, stop: stop).run()
      } catch {
        OfficeLog(source: "worker \(index)").error("\(error)")
        return 1
      }
    case .status(let json):
      return command { connection in
        let report = try OfficeStatus.read(connection)
        StandardOutput.write(json ? report.json + "\n" : report.lines.joined(separator: "\n") + "\n")
      }(configuration)
    case .migrate:
      return command { connection in
        let versions = try SchemaMigrator.migrate(connection, software: "dashpilot-officed \(version)")
        StandardOutput.write(
          versions.from == versions.to
            ? "the office schema is at version \(versions.to) already\n"
            : "the office schema is now version \(versions.to) (it was \(versions.from))\n")
      }(configuration)
    case .report(let vehicle, let shift, let output):
      return command { connection in
        try OfficeReportCommand.run(connection, vehicle: vehicle, shift: shift, output: output)
      }(configuration)
    case .help, .version:
      return 0
    }
  }

  /// A command run over one connection: its error said in one line, exit status 1.
  static func command(_ body: @escaping (PostgresConnection) throws -> Void) -> (OfficeConfiguration) -> Int32 {
    { configuration in
      do {
        try body(try PostgresConnection(configuration.database))
        return 0
      } catch {
        StandardError.write("dashpilot-officed: \(error)\n")
        return 1
      }
    }
  }
}
