import FoundationEssentials

/// The numbers of `RouteSampleFilter`, each a setting of `[Capture]`.
public struct RouteSampleFilterConfiguration: Sendable, Hashable {
  /// A fix whose horizontal error is worse than this is rejected.
  public var maximumHorizontalAccuracy: Double = 100
  /// The error radius (metres) given to a fix from a receiver that reports no error
  /// estimate at all (RMC only: cheap modules, some configurations), so that it records;
  /// nil refuses such fixes. 25 m is a consumer receiver's 95 % radius under a partly
  /// obstructed sky, and twice it holds a parked receiver's wander still.
  public var assumedAccuracy: Double? = 25
  /// A fix older than this when it arrives is rejected.
  public var maximumAge: TimeInterval = 10
  /// Speed implied from the last retained sample of the same session, or from the
  /// previous fix, above which a fix is implausible.
  public var maximumImpliedSpeed: Double = 70
  /// Movement under this from the last retained sample is negligible.
  public var minimumMovement: Double = 5
  /// A receiver reporting less than this speed (m/s), or, when it reports none, whose
  /// implied speed since the last retained sample is less than this, is treated as
  /// standing still ... Parked real receivers report speed noise of 1-1.7 m/s
  /// (haicom-305N, navisys-gr701w in gpsd's regression logs), hence 2 m/s.
  public var stationarySpeed: Double = 2.0
  /// ... and its movement is negligible while it stays within this multiple of its current
  /// error estimate (this fix's and the previous one's): a parked receiver's position
  /// wanders by more than `minimumMovement`, and that wander is not driving. Two fixes each
  /// within their 95 % radius r of the truth can be up to 2r apart, hence 2.
  public var stationaryErrorFraction: Double = 2.0
  /// A move from the last retained sample must be carried by the receiver's reported
  /// speeds: the distance they integrate to since then, plus what earlier moves of the
  /// stretch left unused (a chord is shorter than its bend), plus this margin (metres)
  /// once a stretch. A move they do not carry is the position estimate moving (a cold
  /// start settling, a reflected signal, noise), not the vehicle: it is not kept as a move.
  /// Doppler speed is far less noisy than position, and this keeps the figure a floor.
  public var speedEvidenceMargin: Double = 5
  /// ... as long as the move is within this multiple of the error estimates (the larger of
  /// the fix's and the reference's): a cold start's first fixes can sit 100 m off while
  /// claiming 20 m. A longer move is believed over the speeds (a receiver whose speed
  /// output is wrong: bundg_zeus_9 in gpsd's logs reports 0.3 m/s while sailing at 3).
  public var speedEvidenceErrorMultiple: Double = 8
  /// While a vehicle stands still, a held sample is kept this often (seconds), so that a
  /// stop with the receiver reporting is one unbroken stretch, not a capture gap. Well
  /// inside `maximumSampleInterval`, so a missed fix or two does not break it.
  public var heldSampleInterval: TimeInterval = 60
  /// Beyond this silence since the last retained sample the speed rule does not apply:
  /// the measurement sees a gap there anyway, so the rule must not lock capture out.
  public var maximumSampleInterval: TimeInterval = 120
  /// After this many consecutive implausible fixes that agree with each other, the last
  /// retained sample (or the previous fix) is the outlier and the latest fix is accepted.
  public var implausibleStreakToTrust: Int = 3

  public init() {}
}
