/// The configured `SpeechCommand`, split into a program and its arguments the way a
/// systemd `ExecStart=` line is: on whitespace, with double or single quotes keeping an
/// argument together. No shell runs it, so nothing in an announcement can be interpreted.
public struct SpeechCommand: Sendable, Hashable, CustomStringConvertible {
  /// The program (a path, or a name looked up in PATH) and then its arguments.
  public let arguments: [String]

  public init(parsing text: String) throws(SpeechCommandError) {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    for character in text {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
        continue
      }
      if character == "\"" || character == "'" {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
    }
    if quote != nil { throw SpeechCommandError("the speech command \"\(text)\" has an unclosed quote") }
    if inWord { words.append(current) }
    guard let program = words.first, !program.isEmpty else {
      throw SpeechCommandError("the speech command is empty")
    }
    arguments = words
  }

  public var program: String { arguments[0] }
  public var description: String { arguments.joined(separator: " ") }
}

public struct SpeechCommandError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
