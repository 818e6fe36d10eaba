import PlatformSupport

extension ArgumentCursor {
  /// The shift a command names: `12`, or `#12` as `shifts` prints it.
  mutating func shiftID(for command: String) throws(UsageError) -> Int64 {
    let text = try requiredPositional("the shift ID")
    guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), id > 0 else {
      throw UsageError("\"\(text)\" is not a shift number", command: command)
    }
    return id
  }
}
