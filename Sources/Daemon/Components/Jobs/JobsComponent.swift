import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport
import Store

/// The office's jobs on the box: `job.assign` (one, or a list: `job.assign_all`), `job.cancel`
/// and `job.list`, and what the
/// shift's stops mean for them. `JobQueue` (pure) decides; this adapter hears the stops
/// from the recording component (`StopObserver`) and the shift's end from the events,
/// writes each change to the ledger (`JobLedger`, in the store's file) in the transaction
/// that announces it (so the uplink's copy of the event commits with it), and, with
/// `[Jobs] Navigate=yes`, asks for the way to the next job once one is visited, as
/// `navigate` does.
public final class JobsComponent: DaemonComponent, StopObserver {
  public let name = "jobs"
  public let commands: Set<ControlCommand.Kind> = [.jobAssign, .jobAssignAll, .jobCancel, .jobList]

  let navigates: Bool
  let ledger = JobLedger()
  var queue = JobQueue()
  var context: DaemonContext?
  var store: SampleStore?

  public init(configuration: DaemonConfiguration) {
    navigates = configuration.navigateToJobs
  }

  /// The store is open: the ledger's table, and the queue as the last process left it.
  public func storeOpened(_ store: SampleStore) throws {
    try store.install(JobLedger.schema)
    let open = try store.read { (transaction) throws(StoreError) in try ledger.open(in: transaction) }
    queue = JobQueue(
      entries: open.map { stored in
        JobQueue.Entry(job: stored.job, arrival: stored.evidence.map { JobVisit(job: stored.job, stop: $0.stop) })
      })
    self.store = store
  }

  public func start(context: DaemonContext) throws {
    self.context = context
    context.addEventObserver { [weak self] event in
      if case .shiftEnded(let ended) = event.payload { self?.shiftEnded(ended) }
    }
  }

  // MARK: - What the stops mean

  public func stopStarted(_ stop: Stop, shift: Int64) {
    record(queue.stopStarted(stop), shift: shift, figure: figureSoFar())
  }

  public func stopEnded(_ stop: Stop, shift: Int64?) {
    let outcomes = queue.stopEnded(stop)
    record(outcomes, shift: shift, figure: figureSoFar())
    let visited = outcomes.contains { if case .visited = $0 { true } else { false } }
    if visited, navigates { navigateToNext() }
  }

  /// The shift's figure as it ended, as its event gives it (the shift is closed: status has none).
  private func shiftEnded(_ ended: DaemonEvent.ShiftEnded) {
    let figure = ended.distanceMetres.map {
      DaemonEvent.FigureSoFar(metres: $0, partial: ended.partial ?? false, summary: ended.summary)
    }
    record(queue.shiftEnded(), shift: ended.shift, figure: figure)
  }

  /// The open shift's figure as `status` gives it.
  private func figureSoFar() -> DaemonEvent.FigureSoFar? {
    guard let shift = context?.status()?.shift else { return nil }
    return DaemonEvent.FigureSoFar(
      metres: shift.distance.metres, partial: shift.distance.isPartial, summary: shift.summary)
  }

  /// Each outcome written to the ledger and announced, in one transaction.
  private func record(_ outcomes: [JobOutcome], shift: Int64?, figure: DaemonEvent.FigureSoFar?) {
    guard !outcomes.isEmpty, let context else { return }
    let told = outcomes.map { JobTelling($0, shift: shift) }
    do {
      guard let store else { throw StoreError.invalidSetting("the store is not open") }
      try store.transaction("record what happened to jobs") { (transaction) throws(StoreError) in
        for telling in told { try ledger.update(telling.stored, in: transaction) }
        for telling in told { context.announce(telling.event(figure: figure), telling.message) }
      }
    } catch {
      // Told all the same: the office hears it live, and the queue moved on; the ledger
      // says otherwise until the next change (and after a restart).
      context.logger.warning("jobs: what happened to \(told.map(\.stored.job.id)) could not be stored: \(error)")
      for telling in told { context.announce(telling.event(figure: figure), telling.message) }
    }
  }

  private func navigateToNext() {
    guard let next = queue.next, let context else { return }
    let destination = WireCoordinate(lat: next.destination.latitude, lon: next.destination.longitude)
    let request = ControlRequest(
      id: .text("job-\(next.id)"),
      command: .navigate(NavigateArguments(destination: destination, mode: .driving, name: next.name)))
    context.logger.info("jobs: navigating to the next job, \(next.id) (\(next.name))")
    context.dispatch(request, to: Responder(channel: NavigationAnswer(context: context, job: next), conversation: 0))
  }
}

/// Where the answer to a navigation the jobs asked for goes: the journal, when it failed
/// (guidance announces what it does with the route).
private final class NavigationAnswer: ResponseChannel {
  let context: DaemonContext
  let job: DeliveryJob

  init(context: DaemonContext, job: DeliveryJob) {
    self.context = context
    self.job = job
  }

  func deliver(_ answer: ControlAnswer) {
    if case .failure(let error) = answer {
      context.logger.warning("jobs: could not navigate to job \(job.id) (\(job.name)): \(error.message)")
    }
  }

  func startFollowing() -> Bool { false }
}
