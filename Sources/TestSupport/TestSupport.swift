import DashPilotCore
import Foundation

/// Deterministic randomness for property tests: the same seed gives the same routes.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  /// SplitMix64.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Builds routes for tests: positions a given distance and bearing apart, one per step.
public struct RouteBuilder {
  public var time: Date
  public var position: GeoCoordinate
  public var session: CaptureSessionID?
  public var accuracy: Double
  public private(set) var samples: [RouteSample] = []

  public init(
    start: GeoCoordinate = GeoCoordinate(latitude: 51.5, longitude: -0.12),
    time: Date = Date(timeIntervalSince1970: 1_700_000_000),
    session: CaptureSessionID? = CaptureSessionID("s1"), accuracy: Double = 5
  ) {
    self.position = start
    self.time = time
    self.session = session
    self.accuracy = accuracy
    samples.append(sample())
  }

  public func sample() -> RouteSample {
    RouteSample(timestamp: time, coordinate: position, horizontalAccuracy: accuracy, captureSessionID: session)
  }

  /// Moves `metres` on `bearing` over `seconds` and records a position there.
  public mutating func drive(_ metres: Double, bearing: Double = 90, seconds: TimeInterval = 1) {
    position = GeographicDistance.destination(from: position, bearing: bearing, distance: metres)
    time += seconds
    samples.append(sample())
  }
}
