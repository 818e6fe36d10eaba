import DashPilotCore
import FoundationEssentials
import Store

/// Where the store's whole-file check stands (`StoreCheck`: after start-up, off the loop),
/// and what to do with what it found. Pure: told the time, it answers with what to say.
///
/// A file found damaged while the daemon records is not a reason to stop recording: capture
/// goes on into it, and the damage is said in the journal at error priority, in status and
/// as an event, so that the person looking after the box can act (`dashpilotctl backup`
/// copies every readable page; the file a future start finds unopenable is moved aside and
/// kept, as at open).
struct StoreCheckState: Hashable {
  enum Phase: Hashable {
    /// Start-up comes first: the check runs on the first tick after it.
    case waiting
    case running(since: Date)
    case healthy(at: Date, seconds: Double)
    /// quick_check's first findings.
    case damaged(at: Date, findings: [String])
    /// The check could not run to its end (the file could not be opened or read).
    case failed(at: Date, reason: String)
  }

  /// At most this many of quick_check's lines are kept and said: a badly damaged file
  /// gives thousands.
  static let findingsKept = 5

  private(set) var phase = Phase.waiting

  /// Whether to start the check now (once, on the first tick after start-up).
  mutating func startIfDue(now: Date) -> Bool {
    guard phase == .waiting else { return false }
    phase = .running(since: now)
    return true
  }

  /// The check's result: what to say of it.
  mutating func finished(
    _ result: Result<StoreCheck.Finding, StoreError>, path: String, now: Date
  ) -> [RecordingAction] {
    switch result {
    case .success(let finding) where finding.isHealthy:
      phase = .healthy(at: now, seconds: finding.seconds)
      var actions: [RecordingAction] = [
        .log(
          .info, "store: \(path) passed its integrity check (quick_check, \(Self.seconds(finding.seconds)) s)",
          LogFields(reason: "store_check"))
      ]
      for refusal in finding.priorityRefused {
        actions.append(
          .log(.warning, "store: the check ran at normal priority: \(refusal)", LogFields(reason: "store_check")))
      }
      return actions
    case .success(let finding):
      let findings = Array(finding.lines.prefix(Self.findingsKept))
      phase = .damaged(at: now, findings: findings)
      return [
        .log(
          .error,
          "store: \(path) is damaged (quick_check found \(finding.lines.count) problem\(finding.lines.count == 1 ? "" : "s"): "
            + findings.joined(separator: "; ")
            + "); capture goes on into it; copy what it holds with `dashpilotctl backup` and replace the card",
          LogFields(reason: "store_damaged"))
      ]
    case .failure(let error):
      phase = .failed(at: now, reason: error.description)
      return [
        .log(
          .error, "store: the integrity check of \(path) could not run: \(error)", LogFields(reason: "store_check"))
      ]
    }
  }

  private static func seconds(_ value: Double) -> String {
    FixedDecimal.text(value, digits: 1) ?? "?"
  }
}
