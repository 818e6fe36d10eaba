/// `job.list`: the queue, in the order the jobs came, and the jobs done (visited, then
/// not reached) in `shift`: the open shift, else the last one; null before any.
public struct JobsResult: Sendable, Hashable, Codable {
  public var queue: [WireJob]
  @ExplicitNull public var shift: Int64?
  public var done: [WireJob]

  public init(queue: [WireJob], shift: Int64?, done: [WireJob]) {
    self.queue = queue
    self.shift = shift
    self.done = done
  }
}
