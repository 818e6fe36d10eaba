/// The product version both executables report.
public enum DashPilotVersion {
  public static let string = "0.3.0"
}
