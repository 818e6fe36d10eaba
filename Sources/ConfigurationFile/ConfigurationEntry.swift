/// One `Key=Value` line of the configuration file, with where it was.
public struct ConfigurationEntry: Sendable, Hashable {
  public var section: String
  public var key: String
  public var value: String
  public var line: Int

  public init(section: String, key: String, value: String, line: Int) {
    self.section = section
    self.key = key
    self.value = value
    self.line = line
  }
}
