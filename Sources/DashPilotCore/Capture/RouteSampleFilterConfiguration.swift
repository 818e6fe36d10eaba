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
  /// Doppler speed is far less noisy than position, and this keeps the figure a floor:
  /// with speeds that add up to the road exactly, 1 m of jitter on every fix lifted it
  /// 0.4 % above the road while the margin was 5 m and given afresh at every held sample.
  public var speedEvidenceMargin: Double = 2
  /// A move may overdraw the speeds by the noise its two ends really have, which later
  /// moves repay: the reference's own error can put every fix after it a few metres
  /// further than the speeds carried, and refusing them all would hold a moving vehicle
  /// back until a held sample. The overdraft is `scatterMultiple` times the scatter of the
  /// receiver's moving fixes about its speeds, or `overdraftFraction` of what the speeds
  /// carried if more (over a longer move the two ends' errors drift apart further), never
  /// more than this fraction of the error estimates (the larger of the fix's and the
  /// reference's), and none before a moving fix has shown the scatter. Over a stretch the
  /// kept moves then exceed the speeds by at most the margin and one overdraft.
  public var speedEvidenceErrorFraction: Double = 0.5
  public var scatterMultiple: Double = 2
  public var overdraftFraction: Double = 0.1
  /// The scatter is a running mean that gives each moving fix this weight.
  public var scatterWeight: Double = 0.1
  /// A move from the reference judged without speeds (some fix since it reported none: a
  /// receiver that sends GGA only, whose fixes gpsd cannot time) must be at least this
  /// multiple of its two ends' error estimates long. Nothing else caps what position noise
  /// adds then: a chord of length L whose ends lie c apart across it measures about
  /// c² / 2L more than it is, so a drive kept one ten-metre step a second rises with every
  /// step, and the few metres its error runs ahead of the vehicle as it stops, then back
  /// when it stands, are kept as moves (a GGA-only drive recorded 552.9 m of 540 m).
  /// Refused moves make the next kept one a longer chord, over which the across-track
  /// noise adds a smaller share; a chord cuts the bends it spans, and the stretch before a
  /// stop that never clears the threshold is not measured: both under-count, which keeps
  /// the figure a floor (535.5 m of 540 m). One error radius, not the two that tell a
  /// parked receiver's wander: a claimed 95 % radius overstates the noise several times,
  /// and a chord every 40-60 m cut the same drive to 499.8 m (half a radius: 545.1 m, still
  /// above). Receivers that report speeds are capped by them instead and are not judged by
  /// this.
  public var unspeededMoveErrorFraction: Double = 1
  /// A reported speed under this (m/s) is a standing receiver's noise, not movement: it
  /// carries no move. A parked receiver's speeds wander by tenths of a metre a second and,
  /// counted, let position noise through each time the vehicle drives off.
  public var standingSpeedNoise: Double = 0.5
  /// The receiver's speed noise, which lengthens every speed it reports (`SpeedDistance`),
  /// is measured from three speeds in a row at most this far apart (seconds) ...
  public var speedNoiseMaximumInterval: TimeInterval = 2
  /// ... all under this (m/s): a walk or a creep, where the bias is a share of the speed
  /// worth removing; faster, a vehicle's changes of acceleration exceed the noise ...
  public var speedNoiseMaximumSpeed: Double = 3
  /// ... as a running mean giving each measurement this weight (about 40 of them: the mean
  /// of fewer squares varies by more than a quarter).
  public var speedNoiseWeight: Double = 0.05
  /// At a walk or a creep each speed also counts less this fraction of the noise's σ. Over a
  /// stretch of N fixes the sum of their speeds errs by σ√N either way, and the kept moves
  /// follow it (a 2 m/s walk's speeds added up to 0.4 % over its path by chance alone);
  /// this is two of those errors over 1,600 fixes, 27 minutes at 1 Hz, so that a walk's
  /// figure stays a floor (3 of 42 generated walks recorded up to 0.3 % over without it,
  /// none with it; a drive, faster, is not touched).
  public var speedNoiseDoubt: Double = 0.05
  /// How close in course (degrees) two neighbouring slow fixes must be to confirm each
  /// other's movement (`SpeedDistance`): a walker's course at 1.4 m/s with a phone's 0.5 m/s
  /// of noise varies by about 20° a fix, while a waiting walker's random courses agree
  /// within 60° one time in three (within 90°, one in two: a phone's generated walks with
  /// waits then still carried 1.3-2.1 % more than their path).
  public var speedConfirmationAngle: Double = 60
  /// Whether a speed reported without a course is one gpsd computed from the positions (a
  /// receiver that sent none), not the receiver's own: true for gpsd's reports, false for a
  /// source whose speeds are all the receiver's (an imported logger's track).
  public var courseLessSpeedsAreComputed = true
  /// Positions are believed over the speeds only on sustained agreement, never on one
  /// jump: at least this many fixes since the last retained sample ...
  public var agreementFixes: Int = 3
  /// ... over at least this many seconds from the first of them ...
  public var agreementSeconds: TimeInterval = 3
  /// ... each step's velocity within this fraction of the step's before it (plus
  /// `stationarySpeed` for each second of the step: a position's noise, or a vehicle
  /// speeding up unseen in a tunnel), with no fix-mode change between, and the positions
  /// beyond the speeds by more than `stationaryErrorFraction` error radii. So a receiver whose speed output is
  /// wrong (bundg_zeus_9 in gpsd's logs reports 0.3 m/s while sailing at 3) and a drive
  /// out of a tunnel the speeds either side cannot carry are measured; a settling cold
  /// start, a reflected signal or noise, which step in directions and at paces that
  /// disagree, are not. The same fraction is how closely a slow receiver's positions must
  /// follow the displacement its speeds and courses add up to for it to count as moving
  /// rather than standing still (a walker).
  public var agreementTolerance: Double = 0.5
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
  /// Whether a fix that came with no date is dated by its arrival (`DateByArrival=`):
  /// capture decides it before the filter judges the fix (`ArrivalDating`).
  public var dateByArrival: ArrivalDating = .synchronised

  public init() {}
}
