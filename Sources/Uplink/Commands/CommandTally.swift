import ControlProtocol
import FoundationEssentials

/// What the command channel counted, for `status`: messages received, answers, refusals by
/// code and the last command. The uplink's queue counts what it refused before anything
/// ran, the loop what was answered; the two are merged for `status`. Pure.
public struct CommandTally: Sendable, Hashable {
  public var received = 0
  public var succeeded = 0
  public var refused: [String: Int] = [:]
  public var last: CommandChannelSection.LastCommand?

  public init() {}

  /// A message came on the command topic.
  public mutating func receive() { received += 1 }

  /// What became of a command (or of a message that was none): `outcome` is "ok",
  /// "running", or an error code.
  public mutating func note(id: String?, command: String?, outcome: String, at time: Date) {
    switch outcome {
    case "ok": succeeded += 1
    case "running": break
    default: refused[outcome, default: 0] += 1
    }
    if let last, last.at > time { return }
    last = CommandChannelSection.LastCommand(id: id, command: command, at: time, outcome: outcome)
  }

  /// Both tallies' counts, and the later of their last commands.
  public func merging(_ other: CommandTally) -> CommandTally {
    var merged = self
    merged.received += other.received
    merged.succeeded += other.succeeded
    merged.refused.merge(other.refused, uniquingKeysWith: +)
    if let theirs = other.last, merged.last.map({ $0.at <= theirs.at }) ?? true { merged.last = theirs }
    return merged
  }

  /// The `commands` section of `status` at `now`.
  public func section(configuration: UplinkConfiguration, now: Date) -> CommandChannelSection {
    CommandChannelSection(
      accepting: configuration.acceptCommands, topic: configuration.topic(.command),
      allowed: configuration.allowedCommands.map(\.rawValue).sorted(), received: received, succeeded: succeeded,
      refused: refused, last: last, summary: summary(accepting: configuration.acceptCommands, now: now))
  }

  /// "on · last navigate (office-41) 12 s ago: ok · refused 3 (busy 2, expired 1)", or "off".
  func summary(accepting: Bool, now: Date) -> String {
    guard accepting else { return "off (AcceptCommands=no)" }
    var parts = ["on"]
    if let last {
      let what = [last.command, last.id.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
      let age = UplinkStatus.age(now.timeIntervalSince(last.at))
      parts.append("last \(what.isEmpty ? "message" : what) \(age) ago: \(last.outcome)")
    } else {
      parts.append("no command yet")
    }
    let total = refused.values.reduce(0, +)
    if total > 0 {
      let codes = refused.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      parts.append("refused \(total) (" + codes.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
    }
    return parts.joined(separator: " · ")
  }
}
