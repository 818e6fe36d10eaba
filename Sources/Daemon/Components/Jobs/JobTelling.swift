import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

/// One job outcome as the ledger stores it, the event announces it and the journal says it.
struct JobTelling {
  let outcome: JobOutcome
  let stored: StoredJob

  init(_ outcome: JobOutcome, shift: Int64?) {
    self.outcome = outcome
    switch outcome {
    case .arrived(let job, let visit):
      stored = StoredJob(job: job, state: .arrived, shift: shift, evidence: .init(visit))
    case .visited(let job, let visit):
      stored = StoredJob(job: job, state: .visited, shift: shift, evidence: .init(visit))
    case .notReached(let job): stored = StoredJob(job: job, state: .notReached, shift: shift)
    }
  }

  func event(figure: DaemonEvent.FigureSoFar?) -> DaemonEvent {
    let fields = DaemonEvent.JobTold(shift: stored.shift, job: WireJob(stored), figure: figure)
    switch outcome {
    case .arrived: return .jobArrived(fields)
    case .visited: return .jobVisited(fields)
    case .notReached: return .jobNotReached(fields)
    }
  }

  var message: String {
    let job = "job \(stored.job.id) (\(stored.job.name))"
    guard let evidence = stored.evidence else {
      return "\(job) not reached by the end of shift \(stored.shift.map(String.init) ?? "?")"
    }
    let distance = "\(Int(evidence.distance.rounded())) m from it"
    let arrival = UTCTimestamp.string(evidence.arrival) ?? "?"
    switch outcome {
    case .arrived: return "arrived at \(job), \(distance), at \(arrival)"
    default:
      let departure = UTCTimestamp.string(evidence.departure) ?? "?"
      return
        "visited \(job): stopped \(StopWording.duration(evidence.duration, cut: nil)), \(distance), from \(arrival) to \(departure)"
    }
  }
}
