extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (Foundation's
  /// `trimmingCharacters(in: .whitespaces)`, which FoundationEssentials lacks).
  public var trimmingSpacesAndTabs: String { trimming { $0 == " " || $0 == "\t" } }

  /// The text without leading and trailing spaces, tabs and line breaks (XML's white space,
  /// and Foundation's `.whitespacesAndNewlines` for ASCII text).
  public var trimmingWhiteSpaceAndNewlines: String {
    trimming { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
  }

  /// The text cut or filled with spaces to `length` characters, for a column (Foundation's
  /// `padding(toLength:withPad: " ", startingAt: 0)`).
  public func padded(toLength length: Int) -> String {
    count >= length ? String(prefix(length)) : String(self) + String(repeating: " ", count: length - count)
  }

  private func trimming(_ isBlank: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
