/// The words after a command's name, consumed by the command as it parses them. Options
/// are `--name VALUE` or `--name=VALUE`; `--` ends options; a word like `-33.9,151.2` is
/// a value, not an option.
public struct ArgumentCursor: Sendable {
  private var words: [String]
  private let command: String

  public init(_ words: [String], command: String) {
    self.words = words
    self.command = command
  }

  static func isOption(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    let second = word[word.index(after: word.startIndex)]
    return !(second.isNumber || second == ".")
  }

  /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE; nil when absent.
  public mutating func option(_ name: String) throws(UsageError) -> String? {
    guard let index = words.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }),
      !words[..<index].contains("--")
    else { return nil }
    let word = words.remove(at: index)
    if word.count > name.count { return String(word.dropFirst(name.count + 1)) }
    guard index < words.count, !Self.isOption(words[index]) else {
      throw UsageError("\(name) needs a value", command: command)
    }
    return words.remove(at: index)
  }

  /// The next positional word; nil when none is left.
  public mutating func positional() throws(UsageError) -> String? {
    if let first = words.first, first == "--" { words.removeFirst() }
    guard let first = words.first else { return nil }
    if Self.isOption(first) && !words.contains("--") {
      throw UsageError("unknown option \(first)", command: command)
    }
    return words.removeFirst()
  }

  public mutating func requiredPositional(_ what: String) throws(UsageError) -> String {
    guard let word = try positional() else { throw UsageError("missing \(what)", command: command) }
    return word
  }

  /// Refuses whatever the command did not consume.
  public func finish() throws(UsageError) {
    let rest = words.filter { $0 != "--" }
    guard let first = rest.first else { return }
    throw UsageError(
      Self.isOption(first) ? "unknown option \(first)" : "unexpected argument \"\(first)\"", command: command)
  }
}
