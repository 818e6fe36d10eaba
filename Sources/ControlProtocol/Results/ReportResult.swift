import FoundationEssentials

/// The answer to `report ID`: what a drawing of the shift needs, and no more. The stretches
/// are simplified for drawing on the daemon, which holds every row (a 10-hour shift crosses
/// the socket as a few thousand positions, not hundreds of thousands); the figure, the
/// counts and the gaps in `detail` are measured from every row, as `shift show` measures
/// them.
public struct ReportResult: Sendable, Hashable, Codable, PartedTrackAnswer {
  /// Positions are kept so that none left out lies further from the line drawn than this
  /// fraction of the shift's extent (the longer side of the box around its positions): a
  /// drawing 4,000 points across, finer than any page or screen shows it.
  public static let drawingResolution = 4000.0
  /// The least tolerance, in metres: finer than any receiver's position.
  public static let minimumToleranceMetres = 0.5

  /// What `shift show ID` answers: the figure's words, the counts, the gaps with causes.
  public var detail: ShiftDetail
  /// Each unbroken stretch of capture in time order, simplified for drawing: its first and
  /// last positions always kept (a gap is drawn between the last of one and the first of
  /// the next). A stretch of one position is a lone fix that contributed no distance.
  public var stretches: [[WireTrackPoint]]
  /// The tolerance the stretches were simplified to, in metres.
  public var toleranceMetres: Double
  /// Each moment guidance confirmed the car had left the route, judged over the stored
  /// positions; nil when no route was given.
  public var offRoute: [WireOffRoute]?
  /// The places (not `private` ones: a driver's home is never drawn) that lie within or
  /// touch the box around what is drawn, in the places file's order.
  public var places: [WirePlace]
  /// True when `TrackPart`s follow with more stretches.
  public var more: Bool?

  public init(
    detail: ShiftDetail, stretches: [[WireTrackPoint]], toleranceMetres: Double, offRoute: [WireOffRoute]?,
    places: [WirePlace] = []
  ) {
    self.detail = detail
    self.stretches = stretches
    self.toleranceMetres = toleranceMetres
    self.offRoute = offRoute
    self.places = places
  }

  enum CodingKeys: String, CodingKey {
    case detail, stretches, places, more
    case toleranceMetres = "tolerance_m"
    case offRoute = "off_route"
  }

  public var track: [[WireTrackPoint]] {
    get { stretches }
    // In place: a part appended through a copy would copy the whole track each time.
    _modify { yield &stretches }
  }
}
