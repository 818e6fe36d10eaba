/// `backup`: where the daemon writes a consistent copy of its database. An absolute path
/// the daemon's user may write; nil: a file of its own choosing beside the database
/// (`backups/dashpilot-YYYYMMDDTHHMMSSZ.sqlite`).
public struct BackupArguments: Sendable, Hashable {
  public var path: String?

  public init(path: String? = nil) { self.path = path }
}
