import Daemon
import DashPilotCore
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--version") {
  print("dashpilotd \(DashPilotVersion.string)")
  exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
  print("""
    USAGE: dashpilotd [--config FILE] [--database PATH] [--socket PATH] [--gpsd HOST:PORT] [--foreground]

    Records GPS fixes from gpsd into capture sessions and shifts, measures the
    driver's mileage honestly, and answers dashpilotctl over a Unix socket.

    OPTIONS:
      --version   Show the version.
      -h, --help  Show this help.
    """)
  exit(0)
}
FileHandle.standardError.write(Data("dashpilotd: the daemon is not built yet (issue 6)\n".utf8))
exit(1)
