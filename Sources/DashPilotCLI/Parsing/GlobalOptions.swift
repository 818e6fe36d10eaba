/// Options every command takes, wherever they appear: `--json`, `--socket PATH`,
/// `--help`. The socket comes from `--socket`, else `DASHPILOT_SOCKET`, else the default.
public struct GlobalOptions: Sendable, Hashable {
  public var json = false
  public var socketPath: String
  public var help = false
  public var version = false

  public static let defaultSocketPath = "/run/dashpilot/control.sock"

  /// Splits the global options out of `arguments`, returning the remaining words.
  static func extract(from arguments: [String], environment: [String: String]) throws(UsageError) -> (
    GlobalOptions, [String]
  ) {
    var options = GlobalOptions(
      socketPath: environment["DASHPILOT_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultSocketPath)
    var rest: [String] = []
    var index = 0
    var sawTerminator = false
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if sawTerminator {
        rest.append(word)
        continue
      }
      switch word {
      case "--":
        sawTerminator = true
        rest.append(word)
      case "--json": options.json = true
      case "-h", "--help": options.help = true
      case "--version": options.version = true
      case "--socket":
        guard index < arguments.count, !arguments[index].isEmpty else { throw UsageError("--socket needs a PATH") }
        options.socketPath = arguments[index]
        index += 1
      default:
        if word.hasPrefix("--socket=") {
          let path = String(word.dropFirst("--socket=".count))
          guard !path.isEmpty else { throw UsageError("--socket needs a PATH") }
          options.socketPath = path
        } else {
          rest.append(word)
        }
      }
    }
    return (options, rest)
  }

  init(socketPath: String) { self.socketPath = socketPath }
}
