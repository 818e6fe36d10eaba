import ControlProtocol
import FoundationEssentials
import Glibc
import PlatformSupport
import Store

// The store's file looked after while recording: the whole-file check after start-up, and
// the copy a damaged file or an old layout calls for (`StoreMaintenance` decides; here the
// work is started off the loop and its results handed back to it).
extension RecordingComponent {
  func beginMaintenance(_ store: SampleStore, context: DaemonContext) throws {
    let path = configuration.databasePath
    check = StoreCheck(path: path, mailbox: context.mailbox, monotonic: context.clock.clocks.monotonic)
    rebuilder = StoreRebuilder(path: path, mailbox: context.mailbox)
    maintenance = StoreMaintenance(
      copyLeftUnfinished: access(StoreRebuild.path(forLive: path), F_OK) == 0,
      layoutIsCurrent: try store.hasCurrentLayout())
  }

  /// Whether the file lets rows go now: open before the store has opened (nothing is looked
  /// after yet, and retention has no store either).
  public var deletionGate: StoreDeletionGate { maintenance?.deletionGate ?? .open }

  /// The tick's part: whatever is due.
  func maintainStore(now: ClockReading) {
    guard let steps = maintenance?.ticked(now: now) else { return }
    start(steps)
  }

  private func start(_ steps: [StoreMaintenance.Step]) {
    guard let context else { return }
    let bound = context.bind(self)
    for step in steps {
      switch step {
      case .check:
        check?.run { result in
          bound.withValue { recording in
            guard let now = recording.context?.clock.now(), var maintenance = recording.maintenance else { return }
            let (said, next) = maintenance.checked(result, path: recording.configuration.databasePath, now: now.wall)
            recording.maintenance = maintenance
            recording.perform(said)
            recording.start(next)
          }
        }
      case .copy(let purpose):
        rebuilder?.copyChunk(purpose) { result in bound.withValue { $0.rebuilt(result) } }
      case .catchUp:
        rebuilder?.catchUp { result in bound.withValue { $0.rebuilt(result) } }
      }
    }
  }

  private func rebuilt(_ result: Result<StoreRebuild.Progress, StoreError>) {
    guard let now = context?.clock.now(), var maintenance else { return }
    let (said, next) = maintenance.rebuilt(result, path: configuration.databasePath, now: now)
    self.maintenance = maintenance
    perform(said)
    start(next)
  }
}

extension RecordingComponent {
  /// The store's part of `status` beyond its health: the commits' timing, the check, the copy.
  func contributeMaintenance(to section: inout StoreSection) {
    if let tally = store?.commitTally {
      section.commits = tally.commits
      section.commitsLate = tally.late
      section.worstCommitDelayMilliseconds = Int((tally.worstDelay * 1000).rounded())
    }
    guard let maintenance else { return }
    switch maintenance.check {
    case .waiting: section.check = "waiting"
    case .running: section.check = "running"
    case .healthy: section.check = "ok"
    case .damaged(_, let findings):
      section.check = "damaged"
      section.checkFindings = findings
    case .failed(_, let reason):
      section.check = "failed"
      section.checkFindings = [reason]
    }
    section.rebuild = maintenance.rebuild.section
  }
}

extension StoreMaintenance.Rebuild {
  /// As status shows it; nil when no copy is made.
  var section: StoreRebuildSection? {
    switch self {
    case .none: nil
    case .requested(let purpose):
      StoreRebuildSection(purpose: purpose.rawValue, state: "copying", copiedSamples: 0, unreadable: [])
    case .copying(let progress): Self.section(progress, state: "copying")
    case .copied(let progress, _): Self.section(progress, state: "copied")
    case .failed(_, _, let purpose):
      StoreRebuildSection(purpose: purpose.rawValue, state: "failed", copiedSamples: 0, unreadable: [])
    }
  }

  private static func section(_ progress: StoreRebuild.Progress, state: String) -> StoreRebuildSection {
    StoreRebuildSection(
      purpose: progress.purpose.rawValue, state: state, copiedSamples: progress.copiedSamples,
      unreadable: progress.unreadable.map { "\($0.lowerBound)-\($0.upperBound)" }
        + (progress.tailUnreadable ? ["\(progress.reachedRowID + 1)-"] : []))
  }
}
