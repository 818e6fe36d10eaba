import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes, and whether colour may be used. Colour is only for a
/// terminal, and never when NO_COLOR is set (https://no-color.org); meaning is never
/// carried by colour alone.
public struct Console: Sendable {
  public var writeOutput: @Sendable (String) -> Void
  public var writeError: @Sendable (String) -> Void
  public var useColour: Bool

  public init(
    writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void, useColour: Bool
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
    self.useColour = useColour
  }

  /// The process's own stdout and stderr.
  public static func standard(environment: [String: String]) -> Console {
    Console(
      writeOutput: { text in StandardOutput.write(text) }, writeError: { text in StandardError.write(text) },
      useColour: colourAllowed(isTerminal: isatty(1) == 1, environment: environment))
  }

  public static func colourAllowed(isTerminal: Bool, environment: [String: String]) -> Bool {
    guard isTerminal else { return false }
    if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  public func line(_ text: String = "") { writeOutput(text + "\n") }
  public func error(_ text: String) { writeError(text + "\n") }

  public enum Style: String {
    case bold = "1"
    case dim = "2"
    case green = "32"
    case yellow = "33"
    case red = "31"
  }

  /// `text` in `style` on a colour terminal, plain otherwise.
  public func styled(_ text: String, _ style: Style) -> String {
    useColour ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }
}
