import DashPilotCore
import FoundationEssentials

// `job.assign`, `job.assign_all` and `job.cancel`: a job read whole, each mistake named.
extension ArgumentReader {
  /// `job.assign`'s job: `id`, `name` and `destination` required; `radius_m`, a window
  /// (`window_start` and `window_end`, both or neither) and `note` optional.
  mutating func job() throws(ArgumentFailure) -> DeliveryJob {
    let id = try jobID()
    guard let name = try optionalString("name"), !name.isEmpty else {
      throw ArgumentFailure(message: "needs \"name\": what the driver reads and hears")
    }
    guard let destination = take("destination") else {
      throw ArgumentFailure(message: "needs \"destination\": {\"lat\":…,\"lon\":…}, where the job is")
    }
    let target = try coordinate(destination, label: "destination")
    var radius = DeliveryJob.defaultRadius
    if let value = take("radius_m") {
      guard let metres = value.numberValue, DeliveryJob.radiusRange.contains(metres) else {
        throw ArgumentFailure(
          message: "\"radius_m\" must be a number of metres from \(Int(DeliveryJob.radiusRange.lowerBound)) to "
            + "\(Int(DeliveryJob.radiusRange.upperBound))")
      }
      radius = metres
    }
    let start = try optionalTime("window_start")
    let end = try optionalTime("window_end")
    var window: DateInterval?
    switch (start, end) {
    case (nil, nil): break
    case (let start?, let end?):
      guard end > start else { throw ArgumentFailure(message: "\"window_end\" must come after \"window_start\"") }
      window = DateInterval(start: start, end: end)
    default: throw ArgumentFailure(message: "a window needs both \"window_start\" and \"window_end\"")
    }
    return DeliveryJob(
      id: id, name: name, destination: GeoCoordinate(latitude: target.lat, longitude: target.lon), radius: radius,
      window: window, note: try optionalString("note"))
  }

  /// `job.assign_all`'s list: `jobs`, up to `JobQueue.bound` objects, each read as
  /// `job.assign`'s arguments are; every job that cannot be read is named, and none is taken.
  mutating func jobList() throws(ArgumentFailure) -> JobAssignAllArguments {
    let more = try optionalBool("more") ?? false
    let values = try array("jobs")
    guard !values.isEmpty || more else { throw ArgumentFailure(message: "\"jobs\" holds no job") }
    guard values.count <= JobQueue.bound else {
      throw ArgumentFailure(
        message: "\"jobs\" holds \(values.count) jobs; a list is at most \(JobQueue.bound), the queue's bound")
    }
    var jobs: [DeliveryJob] = []
    var problems: [String] = []
    for (index, value) in values.enumerated() {
      guard case .object(let members) = value else {
        problems.append("\(JobArguments.label(index, id: nil)): must be a job {\"id\":…,\"name\":…,\"destination\":…}")
        continue
      }
      switch JobArguments.job(from: members) {
      case .success(let job): jobs.append(job)
      case .failure(let problem):
        problems.append("\(JobArguments.label(index, id: members["id"]?.stringValue)): \(problem.message)")
      }
    }
    guard problems.isEmpty else {
      throw ArgumentFailure(message: JobArguments.refusal(problems, of: values.count))
    }
    return JobAssignAllArguments(jobs: jobs, more: more)
  }

  mutating func jobID() throws(ArgumentFailure) -> String {
    guard let id = try optionalString("id"), !id.isEmpty, id.utf8.count <= JobArguments.maximumIDBytes else {
      throw ArgumentFailure(message: "needs \"id\": the job's id, 1 to \(JobArguments.maximumIDBytes) bytes")
    }
    return id
  }
}
