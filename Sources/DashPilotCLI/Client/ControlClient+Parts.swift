import ControlProtocol

extension ControlClient {
  /// Sends `whole` in parts of at most `size` elements (`MultiPartArguments`), each under
  /// the line limit, and returns the daemon's answer to the last part as `T`.
  func request<Arguments: MultiPartArguments, T: Decodable>(
    _ whole: Arguments, inPartsOf size: Int, as type: T.Type
  ) throws(ClientFailure) -> T {
    let parts = whole.parts(of: size)
    for part in parts.dropLast() { _ = try request(part.command, as: PartAccepted.self) }
    return try request((parts.last ?? whole).command, as: type)
  }

  /// As above, for a request whose answer may come in parts too (`report` with a route).
  func request<Arguments: MultiPartArguments, T: PartedTrackAnswer>(
    _ whole: Arguments, inPartsOf size: Int, assembling type: T.Type
  ) throws(ClientFailure) -> T {
    let parts = whole.parts(of: size)
    for part in parts.dropLast() { _ = try request(part.command, as: PartAccepted.self) }
    return try request((parts.last ?? whole).command, assembling: type)
  }
}
