/// The words of a command line, consumed by the command as it reads them: the one parser of
/// `dashpilotctl` (its global options and every command) and `dashpilotd`. Options are
/// `--name VALUE` or `--name=VALUE` and may stand anywhere; `--` ends options; a word like
/// `-33.9,151.2` is a value, not an option.
public struct ArgumentCursor: Sendable {
  private var words: [String]
  private let command: String?

  /// `command` names the command the words are for, in its errors; nil for words read
  /// before a command is known.
  public init(_ words: [String], command: String?) {
    self.words = words
    self.command = command
  }

  /// The words not consumed yet.
  public var remaining: [String] { words }

  static func isOption(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    let second = word[word.index(after: word.startIndex)]
    return !(second.isNumber || second == ".")
  }

  /// The words an option may be among: those before `--`.
  private var optionEnd: Int { words.firstIndex(of: "--") ?? words.count }

  /// Removes every `name` (any of `names`) and says whether there was one.
  public mutating func flag(_ names: String...) -> Bool {
    let end = optionEnd
    let before = words.count
    words = words[..<end].filter { !names.contains($0) } + words[end...]
    return words.count < before
  }

  /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE; nil when absent. Given
  /// twice, the later one counts (a script adds to a command line it was handed). A missing
  /// or empty VALUE is an error saying the option needs `value` ("a FILE").
  public mutating func option(_ name: String, value: String = "a value") throws(UsageError) -> String? {
    var found: String?
    while let index = words[..<optionEnd].firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) {
      let word = words.remove(at: index)
      let given: String
      if word.count > name.count {
        given = String(word.dropFirst(name.count + 1))
      } else {
        guard index < words.count, !Self.isOption(words[index]) else {
          throw UsageError("\(name) needs \(value)", command: command)
        }
        given = words.remove(at: index)
      }
      guard !given.isEmpty else { throw UsageError("\(name) needs \(value)", command: command) }
      found = given
    }
    return found
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
