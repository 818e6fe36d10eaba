import ControlProtocol
import FoundationEssentials

/// Where the answer to a fleet command goes: back to the command channel, which records it
/// in the ledger and queues it for `PREFIX/reply` (FleetCommandChannel). A fleet command
/// cannot follow `events`: the events topic carries them.
final class FleetReplyChannel: ResponseChannel {
  private let command: AdmittedFleetCommand
  private weak var owner: FleetCommandChannel?

  init(command: AdmittedFleetCommand, owner: FleetCommandChannel) {
    self.command = command
    self.owner = owner
  }

  func deliver(_ answer: ControlAnswer) {
    owner?.answered(command, answer)
  }

  func startFollowing() -> Bool { false }
}

/// What the channel knows of a command it runs.
struct AdmittedFleetCommand {
  var id: String
  var kind: ControlCommand.Kind
}
