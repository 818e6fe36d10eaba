import FoundationEssentials

/// What `status` answers. Every section is present; what a component has not reported
/// (or is not plugged into this build) is an explicit null rather than a missing key, so
/// a script can tell "unknown" from a typo.
public struct StatusResult: Sendable, Hashable, Codable {
  public var daemon: DaemonSection
  public var gpsd: GPSDSection
  public var capture: CaptureSection
  /// Null when no shift is open.
  @ExplicitNull public var shift: ShiftSummary?
  /// Null when no route is followed.
  @ExplicitNull public var guidance: GuidanceSection?
  public var store: StoreSection
  /// The fleet uplink; absent when the daemon has no `[Uplink]` section.
  public var uplink: UplinkSection?

  public init(
    daemon: DaemonSection, gpsd: GPSDSection, capture: CaptureSection, shift: ShiftSummary?,
    guidance: GuidanceSection?, store: StoreSection, uplink: UplinkSection? = nil
  ) {
    self.uplink = uplink
    self.daemon = daemon
    self.gpsd = gpsd
    self.capture = capture
    self.shift = shift
    self.guidance = guidance
    self.store = store
  }
}
