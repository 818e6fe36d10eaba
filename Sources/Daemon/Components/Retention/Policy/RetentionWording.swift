import DashPilotCore
import FoundationEssentials
import Store

/// What retention says in the journal: what it keeps, each shift it deleted and why, what it
/// kept that it would otherwise have deleted, and how many days of recording the card has
/// left. Pure, so every sentence is tested.
enum RetentionWording {
  /// At start-up: what is kept, in the configuration's own words.
  static func policy(_ policy: RetentionPolicy, floorBytes: Int64?) -> String {
    var text: String
    if let days = policy.keepDays {
      text = "retention: completed shifts are deleted \(days) \(days == 1 ? "day" : "days") after they end"
      if policy.requiresAcknowledgement { text += ", once the broker has acknowledged them" }
    } else {
      text = "retention: every shift is kept (KeepDays=forever)"
    }
    if policy.floor.isOff { return text + "; no free-space floor (FreeSpaceFloor=0)" }
    var floor = "\(policy.floor)"
    if case .percent = policy.floor, let floorBytes { floor += " (\(ByteCount.text(floorBytes)))" }
    return text
      + (policy.requiresAcknowledgement
        ? "; below the free-space floor of \(floor), shifts the broker has acknowledged are deleted, oldest first"
        : "; below the free-space floor of \(floor) the journal warns and nothing is deleted: no fleet broker holds "
          + "a copy of any shift")
  }

  /// One deleted shift: its times, what went, and why.
  static func deleted(_ deletion: ShiftDeletion, reason: RetentionPolicy.Reason?, policy: RetentionPolicy) -> String {
    let shift = deletion.shift.shift
    let span = "\(stamp(shift.startedAt)) to \(shift.endedAt.map(stamp) ?? "?")"
    let sessions = deletion.captureSessionsDeleted
    var text =
      "retention: deleted shift \(shift.id) (\(span); \(count(deletion.samplesDeleted, "sample")), "
      + "\(count(sessions, "capture session")))"
    switch reason {
    case .age(let days)?:
      text += ": it ended \(count(days, "day")) ago, past KeepDays=\(policy.keepDays ?? 0)"
    case .freeSpace(let available, let floor)?:
      text += ": \(ByteCount.text(available)) free for recording was below the floor of \(ByteCount.text(floor))"
    case nil:
      text += ": its deletion had begun before the daemon restarted"
    }
    if policy.requiresAcknowledgement, reason != nil { text += "; the broker had acknowledged it" }
    return text
  }

  /// Shifts old enough to go that stay because the broker has not acknowledged them.
  static func keptUnacknowledged(_ ids: [Int64], keepDays: Int) -> String {
    let list = ids.prefix(10).map(String.init).joined(separator: ", ") + (ids.count > 10 ? ", ..." : "")
    return "retention: \(count(ids.count, "shift")) that ended more than \(count(keepDays, "day")) ago "
      + "\(ids.count == 1 ? "is" : "are") kept until the broker acknowledges \(ids.count == 1 ? "it" : "them"): \(list)"
  }

  static let waitingForTrustedTime =
    "retention: nothing is deleted by age until the box has a time it can trust (a synchronised wall clock or a fix)"

  static let waitingForCopy =
    "retention: nothing is deleted while the store's file is copied into a fresh one; deletions resume once the "
    + "next start of dashpilotd has put the copy in its place"

  /// What `shifts` says is kept, from the configuration.
  static func kept(_ policy: RetentionPolicy) -> String {
    var text: String
    if let days = policy.keepDays {
      text = "Shifts are kept \(count(days, "day")) after they end, then deleted"
      if policy.requiresAcknowledgement { text += " once the broker has acknowledged them" }
      text += " ([Store] KeepDays=\(days))"
    } else {
      text = "Every shift is kept ([Store] KeepDays=forever)"
    }
    guard policy.requiresAcknowledgement, !policy.floor.isOff else { return text + "." }
    return text + "; below the card's free-space floor (\(policy.floor)), shifts the broker has acknowledged go"
      + (policy.keepDays == nil ? ", oldest first." : " sooner, oldest first.")
  }

  /// The room left and what it lasts (`status`; the journal's line once the first figures
  /// are in, and again at each warning level).
  static func outlook(available: Int64, bytesPerDay: Double?, daysLeft: Double?) -> String {
    var text = "\(ByteCount.text(available)) free for recording"
    guard let bytesPerDay else { return text + "; the rate of recording is not known yet" }
    guard let daysLeft else { return text + "; nothing was recorded in the last 7 days" }
    text += " at the last 7 days' rate of \(ByteCount.text(Int64(bytesPerDay.rounded()))) a day: "
    if daysLeft < 1 { return text + "less than a day of recording left" }
    if daysLeft >= 3_650 { return text + "more than ten years of recording left" }
    return text + "about \(count(Int(daysLeft), "day")) of recording left"
  }

  /// Below the floor with nothing that may go.
  static func stuckBelowFloor(available: Int64, floor: Int64, uplink: Bool) -> String {
    "store: \(ByteCount.text(available)) free for recording is below the floor of \(ByteCount.text(floor)), and "
      + (uplink
        ? "no shift the broker has acknowledged is left to delete"
        : "nothing is deleted to make room: no fleet broker holds a copy of any shift (KeepDays= deletes by age)")
  }

  static func failed(_ id: Int64, _ error: any Error) -> String {
    "retention: deleting shift \(id) failed, to be tried again within the hour: \(error)"
  }

  static func count(_ value: Int, _ noun: String) -> String { value == 1 ? "1 \(noun)" : "\(value) \(noun)s" }

  /// The one form DashPilot writes an instant in.
  static func stamp(_ date: Date) -> String { UTCTimestamp.string(date) ?? "?" }
}
