import ControlProtocol
import FoundationEssentials

/// One client of the control socket, owned by the server on the loop thread. Its buffers
/// are bounded: a request line by the protocol's limit, pending output by
/// `ControlServerLimits`.
final class ClientConnection {
  let fd: Int32
  let number: Int
  let peer: PeerCredentials
  var input: [UInt8] = []
  var output: [UInt8] = []
  var outputStart = 0
  var lastRequestAt: Double
  /// When the client last took some of its output: an answer in parts waits for it.
  var lastWrittenAt: Double
  /// What makes the next part of an answer in parts, once the output has room for it.
  var whenDrained: (() -> Void)?
  var isFollowing = false
  /// Answers a component promised and has not given yet; the idle timeout waits for them.
  var outstandingAnswers = 0
  /// Set when the connection must end once its output is written (an over-long line, an
  /// idle timeout, a refusal).
  var closeWhenFlushed = false
  var peerClosedInput = false
  var isOpen = true
  /// Multi-part `import`, `route load`, `report` and `job.assign_all` being assembled on
  /// this connection.
  var pendingImport: ImportArguments?
  var pendingRoute: RouteLoadArguments?
  var pendingReport: ReportArguments?
  var pendingJobs: JobAssignAllArguments?
  /// Cached answer of the access policy.
  var mayChangeState: Bool?

  init(fd: Int32, number: Int, peer: PeerCredentials, now: Double) {
    self.fd = fd
    self.number = number
    self.peer = peer
    self.lastRequestAt = now
    self.lastWrittenAt = now
  }

  var pendingOutputCount: Int { output.count - outputStart }
}
