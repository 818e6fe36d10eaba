import DashPilotCore
import Foundation

/// The `dashpilotctl` command line.
public enum DashPilotCLI {
  public static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--version" {
      print("dashpilotctl \(DashPilotVersion.string)")
      exit(0)
    }
    if arguments.isEmpty || arguments.first == "--help" || arguments.first == "-h" {
      print(usage)
      exit(arguments.isEmpty ? 2 : 0)
    }
    FileHandle.standardError.write(Data("dashpilotctl: unknown command '\(arguments[0])'\n\(usage)\n".utf8))
    exit(2)
  }

  static let usage = """
    USAGE: dashpilotctl <command> [--json] [--socket PATH]

    Talks to dashpilotd, the GPS capture daemon, or replays a gpsd log offline.

    OPTIONS:
      --version   Show the version.
      -h, --help  Show this help.
    """
}
