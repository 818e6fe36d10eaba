import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

struct BackupCommand: CLICommand {
  static let words = ["backup"]
  static let summary = "Have the daemon write a consistent copy of its database while it records."
  static let help = """
    USAGE: dashpilotctl backup [FILE] [--json]

    The daemon copies its whole database into FILE with SQLite's online backup, while
    capture goes on: the copy is one consistent moment of the file, every shift
    complete up to it. The daemon writes FILE as its own user, so FILE must be a place
    that user may write; without FILE the copy goes beside the database, in
    /var/lib/dashpilot/backups/ on a box installed from the package. An existing file
    is never overwritten. Only root, the daemon's user and members of the socket group
    may ask for a backup.

    To restore a copy: sudo systemctl stop dashpilotd, then copy it over
    /var/lib/dashpilot/dashpilot.sqlite (owned by the dashpilot user; remove any
    dashpilot.sqlite-wal and -shm beside it first), then sudo systemctl start dashpilotd.
    """

  var path: String?

  init(arguments: inout ArgumentCursor) throws(UsageError) {
    // The daemon's working directory is not the caller's: a relative FILE is the caller's.
    if let given = try arguments.positional() {
      path = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
    }
    try arguments.finish()
  }

  func run(_ context: CommandContext) -> ExitStatus {
    context.withClient { client throws(ClientFailure) in
      let copy = try client.request(.backup(BackupArguments(path: path)), as: BackupResult.self)
      if context.options.json {
        context.printJSON(copy)
      } else {
        let megabytes = FixedDecimal.text(Double(copy.bytes) / 1_000_000, digits: 1) ?? "?"
        let shifts = copy.shifts == 1 ? "1 shift" : "\(copy.shifts) shifts"
        context.console.line("Backup written: \(copy.path) (\(megabytes) MB, \(shifts)).")
      }
      return .success
    }
  }
}
