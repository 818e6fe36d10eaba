/// `backup`: the copy written, its size and the shifts it holds.
public struct BackupResult: Sendable, Hashable, Codable {
  public var path: String
  public var bytes: Int64
  public var shifts: Int

  public init(path: String, bytes: Int64, shifts: Int) {
    self.path = path
    self.bytes = bytes
    self.shifts = shifts
  }
}
