import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The `dashpilotctl` command line: finds the command named by the first words, lets it
/// read its arguments, runs it. `main` is the process entry; `run` is the same thing with
/// its inputs passed in, for tests.
public enum DashPilotCLI {
  static var commands: [any CLICommand.Type] {
    [
      StatusCommand.self, ShiftStartCommand.self, ShiftEndCommand.self, ShiftsCommand.self, ShiftShowCommand.self,
      ShiftResendCommand.self,
      ExportCommand.self, ReportCommand.self, ImportCommand.self, RouteLoadCommand.self, RouteClearCommand.self,
      NavigateCommand.self,
      EventsCommand.self, BackupCommand.self, PlacesLoadCommand.self, JobsCommand.self, JobAssignCommand.self,
      JobsImportCommand.self, JobCancelCommand.self, ReplayCommand.self,
    ]
  }

  public static func main(hooks: RouteFileHooks = .routeFiles) -> Never {
    let environment = ProcessInfo.processInfo.environment
    let status = run(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: environment, hooks: hooks,
      console: .standard(environment: environment))
    exit(status)
  }

  public static func run(
    arguments: [String], environment: [String: String], hooks: RouteFileHooks = .unavailable, console: Console
  ) -> Int32 {
    let options: GlobalOptions
    var words: [String]
    do throws(UsageError) {
      (options, words) = try GlobalOptions.extract(from: arguments, environment: environment)
    } catch {
      return usageFailure(error, console: console)
    }
    if options.version {
      console.line("dashpilotctl \(DashPilotVersion.string)")
      return ExitStatus.success.rawValue
    }
    if words.first == "help" {
      words.removeFirst()
      guard !words.isEmpty else {
        console.line(overview)
        return ExitStatus.success.rawValue
      }
      guard let command = match(words)?.command else {
        return usageFailure(UsageError("no command \"\(words.joined(separator: " "))\""), console: console)
      }
      console.line(command.help)
      return ExitStatus.success.rawValue
    }
    guard !words.isEmpty else {
      if options.help {
        console.line(overview)
        return ExitStatus.success.rawValue
      }
      console.error(overview)
      return ExitStatus.usage.rawValue
    }
    guard let (command, rest) = match(words) else {
      return usageFailure(UsageError("unknown command \"\(words.prefix(2).joined(separator: " "))\""), console: console)
    }
    if options.help {
      console.line(command.help)
      return ExitStatus.success.rawValue
    }
    var cursor = ArgumentCursor(rest, command: command.name)
    let parsed: any CLICommand
    do throws(UsageError) {
      parsed = try command.init(arguments: &cursor)
    } catch {
      return usageFailure(error, console: console)
    }
    return parsed.run(CommandContext(options: options, console: console, hooks: hooks)).rawValue
  }

  /// The command whose words start `words`, longest first, and the words left over.
  static func match(_ words: [String]) -> (command: any CLICommand.Type, rest: [String])? {
    let candidates = commands.filter { words.starts(with: $0.words) }
    guard let best = candidates.max(by: { $0.words.count < $1.words.count }) else { return nil }
    return (best, Array(words.dropFirst(best.words.count)))
  }

  static func usageFailure(_ error: UsageError, console: Console) -> Int32 {
    let hint =
      error.command.map { "Run 'dashpilotctl help \($0)' for its usage." }
      ?? "Run 'dashpilotctl help' for the commands."
    console.error("dashpilotctl: \(error.message)\n\(hint)")
    return ExitStatus.usage.rawValue
  }

  static var overview: String {
    let rows = commands.map { "  \($0.name.padded(toLength: 13)) \($0.summary)" }
    return """
      USAGE: dashpilotctl COMMAND [--json] [--socket PATH]

      Talks to dashpilotd, the GPS capture daemon, over its control socket.

      COMMANDS:
      \(rows.joined(separator: "\n"))

      OPTIONS (every command):
        --json          Machine-readable output.
        --socket PATH   The daemon's socket (default: $DASHPILOT_SOCKET, else
                        \(GlobalOptions.defaultSocketPath)).
        -h, --help      Help for a command: dashpilotctl help COMMAND.
        --version       Show the version.

      EXIT STATUS: 0 done; 1 the daemon refused or failed the request; 2 usage;
      3 the daemon could not be reached.
      """
  }
}
