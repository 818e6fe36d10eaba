import CInih
import FoundationEssentials
import PlatformSupport

/// Reads the INI file with libinih into entries that remember their line numbers.
///
/// Debian builds inih without `INI_HANDLER_LINENO`, so the handler is not told the line.
/// The lines are therefore fed to `ini_parse_stream` one per reader call, and the reader
/// counts them: when the handler runs, the count is the line being handled.
public enum ConfigurationFileReader {
  /// Longest line inih's fixed 200-byte buffer takes with its newline and terminator.
  static let maximumLineLength = 198

  public static func read(path: String) -> Result<[ConfigurationEntry], ConfigurationError> {
    guard let data = FileManager.default.contents(atPath: path) else {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
      return .failure(ConfigurationError(file: path, "the configuration file \(reason)"))
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return .failure(ConfigurationError(file: path, "the configuration file is not UTF-8 text"))
    }
    return parse(text: text, file: path)
  }

  /// Parses INI text; `file` only names it in errors.
  public static func parse(text: String, file: String?) -> Result<[ConfigurationEntry], ConfigurationError> {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, line) in lines.enumerated() {
      if line.utf8.count > maximumLineLength {
        return .failure(
          ConfigurationError(
            file: file, line: index + 1, "the line is longer than \(maximumLineLength) bytes"))
      }
      if line.utf8.contains(0) {
        return .failure(ConfigurationError(file: file, line: index + 1, "the line contains a NUL byte"))
      }
    }
    let state = ParseState(lines: lines)
    let pointer = Unmanaged.passUnretained(state).toOpaque()
    let result = withExtendedLifetime(state) {
      ini_parse_stream(readLine, pointer, handleEntry, pointer)
    }
    if result > 0 {
      let number = Int(result)
      let content = number <= lines.count ? lines[number - 1].trimmingSpacesAndTabs : ""
      return .failure(
        ConfigurationError(
          file: file, line: number, "\"\(content)\" is not a [Section] header, a comment or a Key=Value line"))
    }
    if result < 0 {
      return .failure(ConfigurationError(file: file, "libinih could not parse the file (error \(result))"))
    }
    return .success(state.entries)
  }

  final class ParseState {
    let lines: [String]
    var nextLine = 0
    var entries: [ConfigurationEntry] = []

    init(lines: [String]) { self.lines = lines }
  }
}

/// inih's reader: copies the next line, newline included, into its buffer.
private func readLine(
  _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int32, _ stream: UnsafeMutableRawPointer?
) -> UnsafeMutablePointer<CChar>? {
  guard let buffer, let stream else { return nil }
  let state = Unmanaged<ConfigurationFileReader.ParseState>.fromOpaque(stream).takeUnretainedValue()
  guard state.nextLine < state.lines.count else { return nil }
  let line = state.lines[state.nextLine]
  state.nextLine += 1
  let bytes = Array(line.utf8.prefix(max(0, Int(capacity) - 2))) + [0x0A, 0]
  bytes.withUnsafeBufferPointer { source in
    source.withMemoryRebound(to: CChar.self) { characters in
      guard let base = characters.baseAddress else { return }
      buffer.update(from: base, count: characters.count)
    }
  }
  return buffer
}

/// inih's handler: records the entry with the line the reader last handed out.
private func handleEntry(
  _ user: UnsafeMutableRawPointer?, _ section: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
  _ value: UnsafePointer<CChar>?
) -> Int32 {
  guard let user, let section, let name, let value else { return 0 }
  let state = Unmanaged<ConfigurationFileReader.ParseState>.fromOpaque(user).takeUnretainedValue()
  state.entries.append(
    ConfigurationEntry(
      section: String(cString: section), key: String(cString: name), value: String(cString: value),
      line: state.nextLine))
  return 1
}
