import FoundationEssentials

/// The words for how a shift's time divided (`ShiftTime`), displayed and spoken. They claim
/// only what the rows show: "stopped" is standing still with the receiver reporting (never
/// "idling": there is no ignition input), "not captured" is time nothing is known of, and
/// "moving" is the rest, halts shorter than a stop included. The three parts are rounded
/// together so that what is shown adds up to the window as shown.
public struct ShiftTimeWording: Sendable, Hashable {
  public let time: ShiftTime
  /// The shortest stop counted (`StopPolicy.minimumStop`), for the sentence that says so.
  public let minimumStop: TimeInterval

  public init(time: ShiftTime, minimumStop: TimeInterval = StopPolicy.defaultMinimumStop) {
    self.time = time
    self.minimumStop = minimumStop
  }

  /// Whole minutes (seconds in a window under half a minute) for moving, stopped and not
  /// captured, rounded so that they add up to the window rounded the same way (largest
  /// remainder; ties to the earlier part).
  public var rounded: (moving: Int, stopped: Int, notCaptured: Int, unit: Unit) {
    let unit: Unit = time.window.duration < 30 ? .seconds : .minutes
    let exact = [time.moving, time.stopped, time.notCaptured].map { $0 / unit.seconds }
    let total = Int((time.window.duration / unit.seconds).rounded(.toNearestOrAwayFromZero))
    var parts = exact.map { Int($0.rounded(.down)) }
    let remainders = exact.enumerated().map { ($0.offset, $0.element - $0.element.rounded(.down)) }
      .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    var missing = total - parts.reduce(0, +)
    for (index, _) in remainders where missing > 0 {
      parts[index] += 1
      missing -= 1
    }
    return (parts[0], parts[1], parts[2], unit)
  }

  public enum Unit: Sendable, Hashable {
    case seconds, minutes

    var seconds: Double { self == .seconds ? 1 : 60 }
  }

  /// "4 h 12 min moving · 2 h 3 min stopped · 14 min not captured"; not captured only when
  /// some time was.
  public var summary: String {
    let parts = rounded
    var line = "\(shown(parts.moving, time.moving, parts.unit)) moving"
    line += " · \(shown(parts.stopped, time.stopped, parts.unit)) stopped"
    if time.notCaptured > 0 { line += " · \(shown(parts.notCaptured, time.notCaptured, parts.unit)) not captured" }
    return line
  }

  /// The sentences that say what the parts mean.
  public var qualifyingSentences: [String] {
    var sentences = [
      "Stopped is standing still for \(StopWording.setting(minimumStop)) or more with the receiver "
        + "reporting; shorter halts count as moving."
    ]
    if time.notCaptured > 0 { sentences.append(Self.notCapturedSentence) }
    return sentences
  }

  /// "4 hours 12 minutes moving, 2 hours 3 minutes stopped, and 14 minutes not captured.",
  /// with what not captured means as a full sentence when there was any, once.
  public var spoken: String {
    let parts = rounded
    let moving = "\(spokenAmount(parts.moving, time.moving, parts.unit)) moving"
    let stopped = "\(spokenAmount(parts.stopped, time.stopped, parts.unit)) stopped"
    guard time.notCaptured > 0 else { return "\(moving) and \(stopped)." }
    let lost = "\(spokenAmount(parts.notCaptured, time.notCaptured, parts.unit)) not captured"
    return "\(moving), \(stopped), and \(lost). \(Self.notCapturedSentence)"
  }

  static let notCapturedSentence =
    "Not captured is time with no positions recorded: where the vehicle was then is not known."

  /// A rounded part as displayed: "under 1 min" for some time that rounds to none.
  private func shown(_ amount: Int, _ exact: Double, _ unit: Unit) -> String {
    if amount == 0, exact > 0 { return unit == .minutes ? "under 1 min" : "under 1 s" }
    guard unit == .minutes else { return "\(amount) s" }
    if amount < 60 { return "\(amount) min" }
    return amount % 60 == 0 ? "\(amount / 60) h" : "\(amount / 60) h \(amount % 60) min"
  }

  private func spokenAmount(_ amount: Int, _ exact: Double, _ unit: Unit) -> String {
    func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    if amount == 0, exact > 0 { return unit == .minutes ? "less than a minute" : "less than a second" }
    guard unit == .minutes else { return count(amount, "second") }
    if amount < 60 { return count(amount, "minute") }
    let hours = count(amount / 60, "hour")
    return amount % 60 == 0 ? hours : "\(hours) \(count(amount % 60, "minute"))"
  }
}
