import ControlProtocol

extension ControlClient {
  /// Sends `whole` in parts of at most `size` elements (`MultiPartArguments`), each under
  /// the line limit, and returns the daemon's answer to the last part as `T`.
  func request<Arguments: MultiPartArguments, T: Decodable>(
    _ whole: Arguments, inPartsOf size: Int, as type: T.Type
  ) throws(ClientFailure) -> T {
    try request(lastPartSending(whole, inPartsOf: size), as: type)
  }

  /// As above, for a request whose answer may come in parts too (`report` with a route).
  func request<Arguments: MultiPartArguments, T: PartedTrackAnswer>(
    _ whole: Arguments, inPartsOf size: Int, assembling type: T.Type
  ) throws(ClientFailure) -> T {
    try request(lastPartSending(whole, inPartsOf: size), assembling: type)
  }

  /// Sends every part of `whole` but the last, and returns the last part's request.
  private func lastPartSending<Arguments: MultiPartArguments>(
    _ whole: Arguments, inPartsOf size: Int
  ) throws(ClientFailure) -> ControlCommand {
    let parts = whole.parts(of: size)
    for part in parts.dropLast() { _ = try request(part.command, as: PartAccepted.self) }
    return (parts.last ?? whole).command
  }
}
