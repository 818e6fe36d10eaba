import PlatformSupport

/// Options every command takes, wherever they appear: `--json`, `--socket PATH`,
/// `--help`. The socket comes from `--socket`, else `DASHPILOT_SOCKET`, else the default.
public struct GlobalOptions: Sendable, Hashable {
  public var json = false
  public var socketPath: String
  public var help = false
  public var version = false

  public static let defaultSocketPath = "/run/dashpilot/control.sock"

  /// Splits the global options out of `arguments` (before any `--`), returning the
  /// remaining words.
  static func extract(from arguments: [String], environment: [String: String]) throws(UsageError) -> (
    GlobalOptions, [String]
  ) {
    var cursor = ArgumentCursor(arguments, command: nil)
    var options = GlobalOptions(
      socketPath: try cursor.option("--socket", value: "a PATH")
        ?? environment["DASHPILOT_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultSocketPath)
    options.json = cursor.flag("--json")
    options.help = cursor.flag("-h", "--help")
    options.version = cursor.flag("--version")
    return (options, cursor.remaining)
  }

  init(socketPath: String) { self.socketPath = socketPath }
}
