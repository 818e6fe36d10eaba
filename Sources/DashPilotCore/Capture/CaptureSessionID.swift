/// Identifies one uninterrupted run of capture. It is minted when fixes start flowing and
/// cleared when they stop, so a change of identifier between two positions is direct
/// evidence that capture was interrupted: something timestamps alone cannot show.
public struct CaptureSessionID: Sendable, Hashable, Codable, CustomStringConvertible {
  public let rawValue: String

  public init(_ rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }
}
