import FoundationEssentials

/// Says when the vehicle entered and left each place, from the fixes as they come (time
/// passed in with each; no clock). A fix bouncing on a border must not make the vehicle
/// enter and leave over and over, so both edges are confirmed, as guidance confirms leaving a
/// route (a count and a duration), and leaving asks for more than entering (hysteresis):
/// - entered: `confirmations` fixes in a row inside the place, spanning at least
///   `confirmationTime`; it happened at the first of them;
/// - left: as many fixes in a row further outside than `leaveMargin` (or their own error
///   estimate, when larger), spanning as long; it happened at the first of them.
/// A fix between the border and the margin is evidence of neither and breaks both streaks;
/// a fix worse than `maximumAccuracy`, or not later than the last one, says nothing at all.
public struct PlaceTracker: Sendable {
  public struct Configuration: Sendable, Hashable {
    public var confirmations: Int = 3
    public var confirmationTime: TimeInterval = 5
    /// 20 m: a parked receiver's wander about where it stands, so a vehicle parked on the
    /// border stays where it entered.
    public var leaveMargin: Double = 20
    /// The capture filter's limit: a worse fix is no evidence of where the vehicle is.
    public var maximumAccuracy: Double = RouteSampleFilterConfiguration().maximumHorizontalAccuracy

    public init() {}
  }

  public enum Event: Sendable, Hashable {
    case entered(Place, at: Date)
    case left(Place, at: Date)
  }

  /// One place's state: inside or not, and the streak of fixes that would change it.
  struct Watch: Sendable {
    var place: Place
    var isInside = false
    var streak = 0
    var streakSince: Date?
  }

  public let configuration: Configuration
  private var watches: [Watch]
  private var lastTime: Date?

  public init(places: [Place], configuration: Configuration = Configuration()) {
    self.configuration = configuration
    watches = places.map { Watch(place: $0) }
  }

  /// The places the vehicle is in, as last confirmed.
  public var inside: [Place] { watches.filter(\.isInside).map(\.place) }

  /// One fix: its position, its error estimate (metres) and its time. Returns what changed,
  /// places left before places entered.
  public mutating func update(_ position: GeoCoordinate, accuracy: Double, at time: Date) -> [Event] {
    guard accuracy <= configuration.maximumAccuracy, position.isValid, lastTime.map({ time > $0 }) ?? true else {
      return []
    }
    lastTime = time
    var left: [Event] = []
    var entered: [Event] = []
    for index in watches.indices {
      let distance = watches[index].place.area.signedDistance(to: position)
      let towardsChange =
        watches[index].isInside ? distance > max(configuration.leaveMargin, accuracy) : distance <= 0
      guard towardsChange else {
        watches[index].streak = 0
        watches[index].streakSince = nil
        continue
      }
      watches[index].streak += 1
      let since = watches[index].streakSince ?? time
      watches[index].streakSince = since
      guard watches[index].streak >= configuration.confirmations,
        time.timeIntervalSince(since) >= configuration.confirmationTime
      else { continue }
      watches[index].isInside.toggle()
      watches[index].streak = 0
      watches[index].streakSince = nil
      let place = watches[index].place
      if watches[index].isInside {
        entered.append(.entered(place, at: since))
      } else {
        left.append(.left(place, at: since))
      }
    }
    return left + entered
  }
}
