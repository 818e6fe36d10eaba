import DashPilotCore
import FoundationEssentials

/// `job.assign`'s arguments as the wire writes them (the other half of
/// `ArgumentReader.job()`), and how `job.assign_all` names the jobs it refuses.
public enum JobArguments {
  /// An office's ids (a UUID, an order number) with room to spare.
  public static let maximumIDBytes = 64

  static func members(of job: DeliveryJob) -> [String: JSONValue] {
    var members: [String: JSONValue] = [
      "id": .string(job.id), "name": .string(job.name), "radius_m": .number(job.radius),
      "destination": WireCoordinate(lat: job.destination.latitude, lon: job.destination.longitude).jsonValue,
    ]
    if let window = job.window {
      members["window_start"] = UTCTimestamp.string(window.start).map(JSONValue.string)
      members["window_end"] = UTCTimestamp.string(window.end).map(JSONValue.string)
    }
    if let note = job.note { members["note"] = .string(note) }
    return members
  }

  /// A job of a list as a refusal names it: `jobs[3] ("B-7")`, the index in the list (from
  /// 0, as the JSON counts) and the id when one could be read.
  public static func label(_ index: Int, id: String?) -> String {
    guard let id, !id.isEmpty else { return "jobs[\(index)]" }
    return "jobs[\(index)] (\"\(id.count <= 40 ? id : String(id.prefix(40)) + "…")\")"
  }

  /// The refusal of a whole list for `problems`, one a job: "2 of 150 jobs refused, none
  /// assigned: jobs[3] (\"B-7\"): …; jobs[9]: …".
  public static func refusal(_ problems: [String], of count: Int) -> String {
    "\(problems.count) of \(count) job\(count == 1 ? "" : "s") refused, none assigned: "
      + problems.joined(separator: "; ")
  }

  /// The job `members` make, read by the one reader of `job.assign`'s arguments, or its
  /// words for what is wrong (`"radius_m" must be a number of metres from 10 to 1000`): for
  /// a client that reads jobs from a file with the wire's names and checks them before
  /// sending.
  public static func job(from members: [String: JSONValue]) -> Result<DeliveryJob, JobArgumentProblem> {
    var reader = ArgumentReader(kind: .jobAssign, members: members)
    do throws(ArgumentFailure) {
      let job = try reader.job()
      try reader.finish()
      return .success(job)
    } catch {
      return .failure(JobArgumentProblem(message: error.message))
    }
  }
}

/// What the reader of `job.assign`'s arguments found wrong with a job, in its words.
public struct JobArgumentProblem: Error, Sendable, Hashable {
  public var message: String

  public init(message: String) { self.message = message }
}
