import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import Store

/// What the daemon does to its store's file while it records, decided here (pure: told the
/// time and what the work found, it answers with what to start and what to say):
///
/// - the whole-file check (`StoreCheck`), once, on the first tick after start-up;
/// - a copy into a fresh file (`StoreRebuild`), made a chunk at a time off the loop, when
///   the check found the file damaged (a salvage: every readable row), when the file has an
///   older layout (a conversion: 0.1.0's 4 KiB pages and AUTOINCREMENT), or when an earlier
///   run left a copy unfinished; once copied it is brought level with the live file every
///   `catchUpInterval`, so the switch, at the next start, reads little.
///
/// A file found damaged while the daemon records is not a reason to stop recording:
/// capture goes on into it, and the copy takes its place at the next start, the damaged
/// file kept beside it.
struct StoreMaintenance: Hashable {
  enum Check: Hashable {
    /// Start-up comes first: the check runs on the first tick after it.
    case waiting
    case running(since: Date)
    case healthy(at: Date, seconds: Double)
    /// quick_check's first findings.
    case damaged(at: Date, findings: [String])
    /// The check could not run to its end (the file could not be opened or read).
    case failed(at: Date, reason: String)
  }

  enum Rebuild: Hashable {
    case none
    /// Asked for; its first chunk is being copied.
    case requested(StoreRebuild.Purpose)
    case copying(StoreRebuild.Progress)
    /// Copied to the live file's end; brought level again at `monotonic` + the interval.
    case copied(StoreRebuild.Progress, caughtUpAt: Double)
    /// The copy failed; tried again at `retryAt` (monotonic).
    case failed(reason: String, retryAt: Double, purpose: StoreRebuild.Purpose)
  }

  /// Work to start off the loop.
  enum Step: Hashable {
    case check
    /// Open (or resume) the copy and copy a chunk.
    case copy(StoreRebuild.Purpose)
    case catchUp
  }

  static let findingsKept = 5
  static let catchUpInterval: Double = 60
  static let retryInterval: Double = 600

  private(set) var check = Check.waiting
  private(set) var rebuild = Rebuild.none
  /// What the file needs besides the check, as the store found it at start-up.
  private let copyLeftUnfinished: Bool
  private let layoutIsCurrent: Bool

  init(copyLeftUnfinished: Bool, layoutIsCurrent: Bool) {
    self.copyLeftUnfinished = copyLeftUnfinished
    self.layoutIsCurrent = layoutIsCurrent
  }

  /// A copy is being made: the file's rows must not be deleted meanwhile (retention waits).
  var isRebuilding: Bool { rebuild != .none }

  /// Whether retention may delete now: once the check has run, so that a damaged file's
  /// rows are copied before any goes, and while no copy is being made (until the next start
  /// puts a finished one in place).
  var allowsDeletion: Bool {
    switch check {
    case .waiting, .running: false
    case .healthy, .damaged, .failed: !isRebuilding
    }
  }

  /// The tick: what to start.
  mutating func ticked(now: ClockReading) -> [Step] {
    if check == .waiting {
      check = .running(since: now.wall)
      return [.check]
    }
    switch rebuild {
    case let .copied(progress, caughtUpAt) where now.monotonic - caughtUpAt >= Self.catchUpInterval:
      rebuild = .copied(progress, caughtUpAt: now.monotonic)
      return [.catchUp]
    case let .failed(_, retryAt, purpose) where now.monotonic >= retryAt:
      rebuild = .requested(purpose)
      return [.copy(purpose)]
    default:
      return []
    }
  }

  /// The check's result: what to say, and the copy it calls for.
  mutating func checked(
    _ result: Result<StoreCheck.Finding, StoreError>, path: String, now: Date
  ) -> (said: [RecordingAction], start: [Step]) {
    let fields = LogFields(reason: "store_check")
    var said: [RecordingAction] = []
    var purpose: StoreRebuild.Purpose?
    switch result {
    case .success(let finding) where finding.isHealthy:
      check = .healthy(at: now, seconds: finding.seconds)
      said.append(
        .log(
          .info, "store: \(path) passed its integrity check (quick_check, \(Self.seconds(finding.seconds)) s)", fields))
      for refusal in finding.priorityRefused {
        said.append(.log(.warning, "store: the check ran at normal priority: \(refusal)", fields))
      }
      if copyLeftUnfinished || !layoutIsCurrent { purpose = .convert }
    case .success(let finding):
      let findings = Array(finding.lines.prefix(Self.findingsKept))
      check = .damaged(at: now, findings: findings)
      let count = finding.lines.count
      said.append(
        .announce(
          EventReport(
            .storeChecked(.init(result: "damaged", findings: findings)),
            "store: \(path) is damaged (quick_check found \(count) problem\(count == 1 ? "" : "s"): "
              + findings.joined(separator: "; ") + "); capture goes on into it, every row that can be read is "
              + "copied into a fresh file, and the next start of dashpilotd puts the copy in its place, keeping the "
              + "damaged file beside it", priority: .error)))
      purpose = .salvage
    case .failure(let error):
      check = .failed(at: now, reason: error.description)
      said.append(
        .announce(
          EventReport(
            .storeChecked(.init(result: "failed", findings: [error.description])),
            "store: the integrity check of \(path) could not run: \(error)", priority: .error)))
      if copyLeftUnfinished { purpose = .convert }
    }
    guard let purpose, rebuild == .none || purpose == .salvage else { return (said, []) }
    if rebuild == .none { rebuild = .requested(purpose) }
    return (said, [.copy(purpose)])
  }

  /// A chunk of the copy, or a catch-up, is done: what to say and what next.
  mutating func rebuilt(
    _ result: Result<StoreRebuild.Progress, StoreError>, path: String, now: ClockReading
  ) -> (said: [RecordingAction], start: [Step]) {
    let fields = LogFields(reason: "store_rebuild")
    switch result {
    case .failure(let error):
      let purpose = rebuild.purpose ?? .convert
      rebuild = .failed(
        reason: error.description, retryAt: now.monotonic + Self.retryInterval, purpose: purpose)
      return (
        [.log(.error, "store: the copy of \(path) failed (\(error)); it is tried again in 10 minutes", fields)], []
      )
    case .success(let progress):
      var said: [RecordingAction] = []
      if case .requested = rebuild {
        said.append(.log(.notice, "store: " + Self.starting(progress, path: path), fields))
      }
      guard progress.isCopied else {
        rebuild = .copying(progress)
        return (said, [.copy(progress.purpose)])
      }
      if case .copied = rebuild {
      } else {
        said.append(
          .log(
            .notice,
            "store: the copy of \(path) holds all \(progress.copiedSamples) samples"
              + "; the next start of dashpilotd puts it in the file's place", fields))
      }
      rebuild = .copied(progress, caughtUpAt: now.monotonic)
      return (said, [])
    }
  }

  private static func starting(_ progress: StoreRebuild.Progress, path: String) -> String {
    switch progress.purpose {
    case .convert:
      "copying \(path) into the current layout (1 KiB pages, no AUTOINCREMENT) while recording; "
        + "the next start after the copy is done switches to it"
    case .salvage:
      "copying every readable row of \(path) into a fresh file while recording"
    }
  }

  private static func seconds(_ value: Double) -> String {
    FixedDecimal.text(value, digits: 1) ?? "?"
  }
}

extension StoreMaintenance.Rebuild {
  var purpose: StoreRebuild.Purpose? {
    switch self {
    case .none: nil
    case .requested(let purpose): purpose
    case .copying(let progress), .copied(let progress, _): progress.purpose
    case .failed(_, _, let purpose): purpose
    }
  }
}
