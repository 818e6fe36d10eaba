import FoundationEssentials

extension DaemonEvent {
  /// What happened to a job (`job.arrived`, `job.visited`, `job.not_reached`): the job with
  /// its state and the stop's evidence, the shift, and the shift's figure when it was told.
  public struct JobTold: Sendable, Hashable, Codable {
    public var shift: Int64?
    public var job: WireJob
    @ExplicitNull public var figure: FigureSoFar?

    public init(shift: Int64?, job: WireJob, figure: FigureSoFar?) {
      self.shift = shift
      self.job = job
      self.figure = figure
    }
  }

  /// The shift's figure at a moment: its metres, whether it is partial (capture was lost
  /// in it) and its sentence, as `status` gives them.
  public struct FigureSoFar: Sendable, Hashable, Codable {
    @Decimetres public var metres: Double
    public var partial: Bool
    public var summary: String

    public init(metres: Double, partial: Bool, summary: String) {
      self.metres = metres
      self.partial = partial
      self.summary = summary
    }
  }
}
