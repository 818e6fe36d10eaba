import ControlProtocol

extension ControlClient {
  /// Sends `whole` in parts of at most `size` elements (`MultiPartArguments`), each under
  /// the line limit, and returns the daemon's answer to the last part as `T`.
  func request<Arguments: MultiPartArguments, T: Decodable>(
    _ command: ControlCommand, _ whole: Arguments, inPartsOf size: Int, as type: T.Type
  ) throws(ClientFailure) -> T {
    let parts = whole.parts(of: size)
    for part in parts.dropLast() { _ = try request(command, part.request, as: PartAccepted.self) }
    return try request(command, (parts.last ?? whole).request, as: type)
  }
}
