import ControlProtocol
import FoundationEssentials
import PlatformSupport
import Store
import Uplink

/// Retention: deletes whole completed shifts when `[Store] KeepDays=` says they are old
/// enough, or when the card's room falls below `[Store] FreeSpaceFloor=` (then only shifts
/// the broker has acknowledged), and says how many days of recording the card has left.
/// What may go is `RetentionPolicy`'s decision; what is said, `RetentionWording`'s.
///
/// Deletion goes through the store's one writer on the loop, one shift at a time, in small
/// transactions (`ShiftDeletion`, `rowsPerStep` rows each), one per turn of the loop with
/// the loop free in between (`EventLoop.after`), so capture's one-second commits and
/// `status` keep their pace. The room left is read on the loop (a statvfs and a header
/// field); the rate of recording counts the history, so it is read on a thread of its own,
/// through a read-only connection at idle I/O priority, and posted back.
///
/// Deletions wait for the store's whole-file check and while its file is copied
/// (`StoreMaintenance.allowsDeletion`): a damaged file's readable rows are saved before any
/// goes, and the copy is not raced for the writer and the card.
public final class RetentionComponent: DaemonComponent {
  public let name = "retention"
  let configuration: DaemonConfiguration
  let policy: RetentionPolicy
  /// The uplink's rows of a shift, deleted with it whether or not the uplink is on now: a
  /// file whose uplink was turned off still holds its outbox.
  let companions: [any ShiftCompanionRows] = [OutboxShiftRows()]

  var context: DaemonContext?
  var store: SampleStore?

  /// Rows one step deletes: a few milliseconds of the loop on an SD card.
  static let rowsPerStep = 2_000
  /// The loop's share a deletion may take: after a step of d seconds the next waits
  /// `pause` times d (at least `minimumPause`), so a slow card slows the deletion, not
  /// capture.
  static let pause = 2.0
  static let minimumPause: TimeInterval = 0.02
  /// How often the age rule is applied, and the rate of recording read again.
  static let passInterval: TimeInterval = 3_600
  /// How often the room left is read (cheap: no read of the history).
  static let spaceInterval: TimeInterval = 10

  /// The shift being deleted and why (nil: a deletion a restart interrupted).
  var current: (deletion: ShiftDeletion, reason: RetentionPolicy.Reason?)?
  /// What retention is working through, if anything.
  var pass: RetentionPass?
  var stepScheduled = false
  /// When (monotonic) the last age pass began, and whether the lack of a trusted time was said.
  var lastAgePass: Double?
  var saidWaitingForTrustedTime = false
  /// The shifts last reported as kept until the broker acknowledges them.
  var reportedUnacknowledged: [Int64] = []

  /// The room left, when last read, and the rate of recording.
  var space: StoreSpace?
  var lastSpaceRead: Double?
  var bytesPerDay: Double?
  var lastFiguresRead: Double?
  var figuresReading = false
  var saidOutlook = false
  /// The lowest days-left warning given; nil while none is due.
  var warnedAt: Int?
  var saidStuckBelowFloor = false
  /// Whether the room was below the floor at the last tick.
  var wasShort = false
  /// When (monotonic) the next pass for room may begin: at once while deletions make room,
  /// an hour after one found nothing it may delete.
  var nextFreeSpacePass: Double = 0
  var figuresWorker: BlockingWorker?
  let historyReader: HistoryReaderBox
  /// Whether the care of the store's file lets rows go now, read at each turn.
  let deletionGate: () -> StoreDeletionGate
  var saidWaitingForCopy = false

  /// Retention of the store that `storeOpened` hands it, deleting only while
  /// `deletionGate` is open (`RecordingComponent.deletionGate`: the file's check has run and
  /// no copy of it is being made).
  public init(configuration: DaemonConfiguration, deletionGate: @escaping () -> StoreDeletionGate) {
    self.configuration = configuration
    policy = RetentionPolicy(configuration)
    historyReader = HistoryReaderBox(path: configuration.databasePath)
    self.deletionGate = deletionGate
  }

  /// The store, once opened (`RecordingComponent.addStoreOpenedHandler`).
  public func storeOpened(_ store: SampleStore) {
    self.store = store
  }

  public func start(context: DaemonContext) throws {
    self.context = context
    guard let store else {
      throw RetentionError("retention needs the recording component's store, which was not opened")
    }
    figuresWorker = BlockingWorker(name: "dashpilot.retention", mailbox: context.mailbox)
    space = try? store.space()
    context.logger.info(
      RetentionWording.policy(
        policy, floorBytes: space.map { policy.floor.bytes(ofFileSystemSize: $0.fileSystemSizeBytes) }),
      fields: LogFields(reason: "retention"))
    // A deletion a restart interrupted is finished first, whatever the configuration says
    // now: the shift is already out of every list.
    if !(try store.shiftsBeingDeleted()).isEmpty {
      pass = .resume
      scheduleStep(after: 0)
    }
  }

  public func tick(now: ClockReading) {
    guard let context else { return }
    if lastSpaceRead.map({ now.monotonic - $0 >= Self.spaceInterval }) ?? true {
      lastSpaceRead = now.monotonic
      readSpace()
    }
    // Hourly, and at once when the room first falls below the floor: the rate is what
    // says how long the card lasts then.
    let short = space.map { policy.shortfall($0) != nil } ?? false
    defer { wasShort = short }
    if !figuresReading,
      (short && !wasShort) || (lastFiguresRead.map({ now.monotonic - $0 >= Self.passInterval }) ?? true),
      let trusted = context.trustedNow(now)
    {
      lastFiguresRead = now.monotonic
      readFigures(now: trusted)
    }
    guard deletionsMayGo() else { return }
    guard pass == nil, current == nil else {
      // Work a wait for the file's copy paused: taken up again (a no-op while a step is due).
      scheduleStep(after: 0)
      return
    }
    if policy.keepDays != nil, lastAgePass.map({ now.monotonic - $0 >= Self.passInterval }) ?? true {
      beginAgePass(now: now)
    }
    if pass == nil, now.monotonic >= nextFreeSpacePass, let space, policy.shortfall(space) != nil {
      beginFreeSpacePass()
    }
  }

  /// Fills the store part of `status` with the room left and what it lasts.
  public func contribute(to status: inout StatusResult) {
    status.store.keepDays = policy.keepDays
    guard let space else { return }
    status.store.freeBytes = space.availableBytes
    status.store.freeSpaceFloorBytes =
      policy.floor.isOff ? nil : policy.floor.bytes(ofFileSystemSize: space.fileSystemSizeBytes)
    status.store.bytesPerDay = bytesPerDay.map { Int64($0.rounded()) }
    status.store.daysLeft = daysLeft.map { ($0 * 10).rounded(.down) / 10 }
    status.store.outlook = RetentionWording.outlook(
      available: space.availableBytes, bytesPerDay: bytesPerDay, daysLeft: daysLeft)
  }

  public func stop() {
    figuresWorker?.finish()
    figuresWorker = nil
  }
}

/// The read-only connection that counts the history, used only on the retention worker's
/// thread, opened there on first use (the thread then at idle I/O priority and nice 19).
final class HistoryReaderBox: @unchecked Sendable {
  // @unchecked: touched only by the worker thread's jobs, one at a time.
  let path: String
  private var reader: SampleStore?

  init(path: String) { self.path = path }

  func figures(since: Date) -> Result<HistoryFigures, StoreError> {
    do throws(StoreError) {
      if reader == nil { _ = ThreadPriority.makeCurrentThreadIdle() }
      let reader: SampleStore
      if let open = self.reader {
        reader = open
      } else {
        reader = try SampleStore(readingFrom: path)
        self.reader = reader
      }
      return .success(try reader.historyFigures(since: since))
    } catch {
      reader = nil
      return .failure(error)
    }
  }
}

struct RetentionError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
