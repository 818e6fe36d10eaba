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
