import FoundationEssentials
import Store

/// Which completed shifts retention deletes, and why: the open shift never (the store
/// refuses it); by age only with `[Store] KeepDays=`; below the free-space floor only the
/// shifts the broker has acknowledged, so only with an uplink. Pure: every time is passed
/// in.
///
/// Age is judged by the shift's end against the box's trusted time now
/// (the context's `trustedNow`: a synchronised wall clock, else the receiver's time carried
/// forward). A shift's end is dated on the receiver's clock too (`ShiftClock`), so both
/// sides of the comparison are the receiver's time where the wall clock cannot be trusted.
/// With no trusted time, nothing goes by age: a box whose wall clock is years ahead must not
/// take every shift for an old one. A receiver that dates its fixes 1024 weeks late (GPS week
/// rollover) dates its shifts the same way, so they age alike.
struct RetentionPolicy: Sendable, Hashable {
  /// `[Store] KeepDays=`; nil keeps every shift whatever its age.
  var keepDays: Int?
  /// With an uplink configured, a shift goes only once the broker has acknowledged it and
  /// every one of its samples (`ShiftDelivery`).
  var requiresAcknowledgement: Bool
  var floor: FreeSpaceFloor

  init(keepDays: Int?, requiresAcknowledgement: Bool, floor: FreeSpaceFloor) {
    self.keepDays = keepDays
    self.requiresAcknowledgement = requiresAcknowledgement
    self.floor = floor
  }

  /// The policy `configuration` sets: its KeepDays and floor, and acknowledgement with an
  /// uplink.
  init(_ configuration: DaemonConfiguration) {
    self.init(
      keepDays: configuration.keepDays, requiresAcknowledgement: configuration.uplink != nil,
      floor: configuration.freeSpaceFloor)
  }

  enum Reason: Sendable, Hashable {
    /// It ended `endedDaysAgo` whole days before now, more than KeepDays.
    case age(endedDaysAgo: Int)
    /// The room left for recording was below the floor.
    case freeSpace(available: Int64, floor: Int64)
  }

  static let day: TimeInterval = 86_400

  /// A shift that ended at or before this has been kept its KeepDays. Nil when nothing goes
  /// by age: no KeepDays, or no time the box can trust.
  func ageCutoff(now: Date?) -> Date? {
    guard let keepDays, let now else { return nil }
    return now.addingTimeInterval(-Double(keepDays) * Self.day)
  }

  /// Why a shift that ended at `endedAt` goes by age, given whether the broker
  /// acknowledged it; nil when it stays.
  func ageReason(endedAt: Date, acknowledged: Bool, now: Date?) -> Reason? {
    guard let cutoff = ageCutoff(now: now), let now, endedAt <= cutoff else { return nil }
    guard !requiresAcknowledgement || acknowledged else { return nil }
    return .age(endedDaysAgo: Int((now.timeIntervalSince(endedAt) / Self.day).rounded(.down)))
  }

  /// The floor in bytes and the room left, when the room is below it; nil otherwise (or
  /// when the floor is off).
  func shortfall(_ space: StoreSpace) -> (available: Int64, floor: Int64)? {
    guard !floor.isOff else { return nil }
    let floorBytes = floor.bytes(ofFileSystemSize: space.fileSystemSizeBytes)
    return space.availableBytes < floorBytes ? (space.availableBytes, floorBytes) : nil
  }

  /// Whether a shift may go to make room: only one the broker has acknowledged. Without an
  /// uplink none was, and the box's record is the only one there is.
  func mayDeleteForSpace(acknowledged: Bool) -> Bool { requiresAcknowledgement && acknowledged }
}
