import DashPilotCore
import Foundation
import Testing

@testable import Daemon
@testable import Store

/// Retention's rules, pure: what goes by age and when no time can be trusted, what goes to
/// make room, the floor's forms, the rate of recording and days left, and every sentence
/// the journal gets.
@Suite struct RetentionPolicyTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let day = 86_400.0

  static func policy(keepDays: Int? = 30, uplink: Bool = false, floor: FreeSpaceFloor = .default) -> RetentionPolicy {
    RetentionPolicy(keepDays: keepDays, requiresAcknowledgement: uplink, floor: floor)
  }

  @Test func aShiftGoesByAgeOnlyPastKeepDaysOnATrustedClock() {
    let policy = Self.policy()
    let old = Self.now.addingTimeInterval(-30 * Self.day - 1)
    #expect(policy.ageReason(endedAt: old, acknowledged: false, now: Self.now) == .age(endedDaysAgo: 30))
    #expect(
      policy.ageReason(endedAt: Self.now.addingTimeInterval(-30 * Self.day), acknowledged: false, now: Self.now)
        == .age(endedDaysAgo: 30))
    #expect(
      policy.ageReason(endedAt: Self.now.addingTimeInterval(-29 * Self.day), acknowledged: false, now: Self.now) == nil)
    // No time the box can trust: nothing is old.
    #expect(policy.ageReason(endedAt: Date(timeIntervalSince1970: 0), acknowledged: true, now: nil) == nil)
    #expect(policy.ageCutoff(now: nil) == nil)
    // No KeepDays: nothing goes by age.
    #expect(Self.policy(keepDays: nil).ageReason(endedAt: old, acknowledged: true, now: Self.now) == nil)
    #expect(
      policy.ageReason(endedAt: Date(timeIntervalSince1970: 0), acknowledged: false, now: Self.now)
        == .age(endedDaysAgo: 20_833))
  }

  @Test func underAnUplinkOnlyWhatTheBrokerAcknowledgedGoes() {
    let policy = Self.policy(uplink: true)
    let old = Self.now.addingTimeInterval(-40 * Self.day)
    #expect(policy.ageReason(endedAt: old, acknowledged: false, now: Self.now) == nil)
    #expect(policy.ageReason(endedAt: old, acknowledged: true, now: Self.now) == .age(endedDaysAgo: 40))
    #expect(policy.mayDeleteForSpace(acknowledged: true))
    #expect(!policy.mayDeleteForSpace(acknowledged: false))
    // Without an uplink no shift was acknowledged: nothing goes to make room.
    #expect(!Self.policy().mayDeleteForSpace(acknowledged: true))
  }

  @Test func theFloorIsAPercentageOrASize() {
    #expect(FreeSpaceFloor(parsing: "10%") == .percent(10))
    #expect(FreeSpaceFloor(parsing: "2.5%") == .percent(2.5))
    #expect(FreeSpaceFloor(parsing: "512M") == .bytes(512 << 20))
    #expect(FreeSpaceFloor(parsing: "2G") == .bytes(2 << 30))
    #expect(FreeSpaceFloor(parsing: "300K") == .bytes(300 << 10))
    #expect(FreeSpaceFloor(parsing: "4096") == .bytes(4096))
    #expect(FreeSpaceFloor(parsing: "0")?.isOff == true)
    #expect(FreeSpaceFloor(parsing: "0%")?.isOff == true)
    for bad in ["", "%", "91%", "-1", "1.5G", "12 M", "10MB", "ten", "M", "9999999999G"] {
      #expect(FreeSpaceFloor(parsing: bad) == nil, "\(bad)")
    }
    #expect(FreeSpaceFloor.percent(10).bytes(ofFileSystemSize: 1_000_000) == 100_000)
    #expect(FreeSpaceFloor.bytes(5).bytes(ofFileSystemSize: 1_000_000) == 5)
    #expect(FreeSpaceFloor.default.description == "10%")
    #expect(FreeSpaceFloor.bytes(512 << 20).description == "512M")
  }

  @Test func belowTheFloorCountsTheFilesFreePages() {
    let policy = Self.policy(floor: .bytes(1_000))
    let space = StoreSpace(fileSystemFreeBytes: 600, fileSystemSizeBytes: 10_000, freePageBytes: 300)
    #expect(policy.shortfall(space).map { [$0.available, $0.floor] } == [900, 1_000])
    var roomy = space
    roomy.freePageBytes = 400
    #expect(policy.shortfall(roomy) == nil)
    #expect(Self.policy(floor: .bytes(0)).shortfall(space) == nil)
    #expect(Self.policy(floor: .percent(5)).shortfall(space) == nil)
    #expect(
      Self.policy(floor: .percent(10)).shortfall(
        StoreSpace(fileSystemFreeBytes: 999, fileSystemSizeBytes: 10_000, freePageBytes: 0)) != nil)
  }

  @Test func theRateIsTheLastSevenDaysAtTheFilesBytesPerRow() throws {
    let figures = HistoryFigures(
      usedBytes: 400_000_000, sampleRows: 8_000_000, recentSampleRows: 140_000,
      firstShiftStart: Self.now.addingTimeInterval(-365 * Self.day))
    // 50 bytes a row, 20,000 rows a day.
    #expect(RecordingOutlook.bytesPerDay(figures, now: Self.now) == 1_000_000)
    #expect(RecordingOutlook.daysLeft(available: 45_500_000, bytesPerDay: 1_000_000) == 45.5)
    // A box two days old: its rate over those two days.
    var young = figures
    young.firstShiftStart = Self.now.addingTimeInterval(-2 * Self.day)
    #expect(RecordingOutlook.bytesPerDay(young, now: Self.now) == 3_500_000)
    // Hours old: over one day.
    young.firstShiftStart = Self.now.addingTimeInterval(-3_600)
    #expect(RecordingOutlook.bytesPerDay(young, now: Self.now) == 7_000_000)
    var idle = figures
    idle.recentSampleRows = 0
    #expect(RecordingOutlook.bytesPerDay(idle, now: Self.now) == 0)
    #expect(RecordingOutlook.daysLeft(available: 1, bytesPerDay: 0) == nil)
    #expect(
      RecordingOutlook.bytesPerDay(
        HistoryFigures(usedBytes: 9, sampleRows: 0, recentSampleRows: 0, firstShiftStart: nil), now: Self.now) == nil)
    #expect(
      [45.5, 30, 29.9, 13, 7, 0.5].map { RecordingOutlook.warningLevel(daysLeft: $0) } == [nil, nil, 30, 14, 14, 1])
  }

  @Test func whatTheJournalIsTold() {
    #expect(
      RetentionWording.policy(Self.policy(keepDays: nil), floorBytes: 1_610_612_736)
        == "retention: every shift is kept (KeepDays=forever); below the free-space floor of 10% (1.5G) the journal "
        + "warns and nothing is deleted: no fleet broker holds a copy of any shift")
    #expect(
      RetentionWording.policy(Self.policy(keepDays: 90, uplink: true, floor: .bytes(512 << 20)), floorBytes: 512 << 20)
        == "retention: completed shifts are deleted 90 days after they end, once the broker has acknowledged them; "
        + "below the free-space floor of 512M, shifts the broker has acknowledged are deleted, oldest first")
    #expect(
      RetentionWording.policy(Self.policy(keepDays: 1, floor: .bytes(0)), floorBytes: 0)
        == "retention: completed shifts are deleted 1 day after they end; no free-space floor (FreeSpaceFloor=0)")
    #expect(
      RetentionWording.keptUnacknowledged([3, 5], keepDays: 30)
        == "retention: 2 shifts that ended more than 30 days ago are kept until the broker acknowledges them: 3, 5")
    #expect(
      RetentionWording.keptUnacknowledged([4], keepDays: 1)
        == "retention: 1 shift that ended more than 1 day ago is kept until the broker acknowledges it: 4")
    #expect(
      RetentionWording.outlook(available: 3_500_000_000, bytesPerDay: 1_200_000, daysLeft: 2_916.7)
        == "3.3G free for recording at the last 7 days' rate of 1.1M a day: about 2916 days of recording left")
    #expect(
      RetentionWording.outlook(available: 73 << 30, bytesPerDay: 610, daysLeft: 128_500_000)
        == "73G free for recording at the last 7 days' rate of 610 bytes a day: more than ten years of "
        + "recording left")
    #expect(
      RetentionWording.outlook(available: 900_000, bytesPerDay: 1_200_000, daysLeft: 0.75)
        == "879K free for recording at the last 7 days' rate of 1.1M a day: less than a day of recording left")
    #expect(
      RetentionWording.outlook(available: 900, bytesPerDay: 0, daysLeft: nil)
        == "900 bytes free for recording; nothing was recorded in the last 7 days")
    #expect(
      RetentionWording.stuckBelowFloor(available: 180 << 20, floor: 200 << 20, uplink: true)
        == "store: 180M free for recording is below the floor of 200M, and no shift the broker has acknowledged is "
        + "left to delete")
    #expect(
      RetentionWording.stuckBelowFloor(available: 180 << 20, floor: 200 << 20, uplink: false)
        == "store: 180M free for recording is below the floor of 200M, and nothing is deleted to make room: no fleet "
        + "broker holds a copy of any shift (KeepDays= deletes by age)")
  }

  @Test func shiftsSaysWhatIsKept() {
    #expect(RetentionWording.kept(Self.policy(keepDays: nil)) == "Every shift is kept ([Store] KeepDays=forever).")
    #expect(
      RetentionWording.kept(Self.policy(keepDays: nil, uplink: true))
        == "Every shift is kept ([Store] KeepDays=forever); below the card's free-space floor (10%), shifts the "
        + "broker has acknowledged go, oldest first.")
    #expect(
      RetentionWording.kept(Self.policy(keepDays: 90))
        == "Shifts are kept 90 days after they end, then deleted ([Store] KeepDays=90).")
    #expect(
      RetentionWording.kept(Self.policy(keepDays: 1, uplink: true, floor: .bytes(512 << 20)))
        == "Shifts are kept 1 day after they end, then deleted once the broker has acknowledged them "
        + "([Store] KeepDays=1); below the card's free-space floor (512M), shifts the broker has acknowledged go "
        + "sooner, oldest first.")
    #expect(
      RetentionWording.kept(Self.policy(keepDays: 30, uplink: true, floor: .bytes(0)))
        == "Shifts are kept 30 days after they end, then deleted once the broker has acknowledged them "
        + "([Store] KeepDays=30).")
  }

  @Test func aDeletedShiftIsSaidWithItsTimesWhatWentAndWhy() throws {
    let shift = StoredShift(
      shift: Shift(
        id: 12, startedAt: Date(timeIntervalSince1970: 1_767_427_200),
        endedAt: Date(timeIntervalSince1970: 1_767_456_600)),
      maximumSampleInterval: 120, origin: .recorded)
    var deletion = ShiftDeletion(shift: shift, companions: [], sessionRows: nil)
    deletion.samplesDeleted = 28_800
    deletion.captureSessionsDeleted = 2
    #expect(
      RetentionWording.deleted(
        deletion, reason: .age(endedDaysAgo: 91), policy: Self.policy(keepDays: 90, uplink: true))
        == "retention: deleted shift 12 (2026-01-03T08:00:00.000Z to 2026-01-03T16:10:00.000Z; 28800 samples, "
        + "2 capture sessions): it ended 91 days ago, past KeepDays=90; the broker had acknowledged it")
    #expect(
      RetentionWording.deleted(
        deletion, reason: .freeSpace(available: 180 << 20, floor: 200 << 20), policy: Self.policy(uplink: true))
        == "retention: deleted shift 12 (2026-01-03T08:00:00.000Z to 2026-01-03T16:10:00.000Z; 28800 samples, "
        + "2 capture sessions): 180M free for recording was below the floor of 200M; the broker had acknowledged it")
    #expect(
      RetentionWording.deleted(deletion, reason: nil, policy: Self.policy())
        == "retention: deleted shift 12 (2026-01-03T08:00:00.000Z to 2026-01-03T16:10:00.000Z; 28800 samples, "
        + "2 capture sessions): its deletion had begun before the daemon restarted")
  }
}
