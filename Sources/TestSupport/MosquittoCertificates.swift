import Foundation

/// A throwaway certificate authority made with `openssl` for TLS tests: a CA, and a server
/// certificate it signed for 127.0.0.1 and localhost.
public struct MosquittoCertificates: Sendable {
  public var caFile: String
  public var serverCertFile: String
  public var serverKeyFile: String

  public var brokerFiles: MosquittoBroker.TLSFiles {
    MosquittoBroker.TLSFiles(caFile: caFile, certFile: serverCertFile, keyFile: serverKeyFile)
  }

  public static func make(in directory: URL, caName: String = "DashPilot Test CA") throws -> MosquittoCertificates {
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let openssl = "/usr/bin/openssl"
    try MosquittoBroker.run(
      openssl,
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(caName)",
        "-keyout", path("ca.key"), "-out", path("ca.crt"),
      ])
    try MosquittoBroker.run(
      openssl,
      [
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
        "-keyout", path("server.key"), "-out", path("server.csr"),
      ])
    try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
      toFile: path("server.ext"), atomically: true, encoding: .utf8)
    try MosquittoBroker.run(
      openssl,
      [
        "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
        "-CAcreateserial", "-days", "2", "-extfile", path("server.ext"), "-out", path("server.crt"),
      ])
    return MosquittoCertificates(
      caFile: path("ca.crt"), serverCertFile: path("server.crt"), serverKeyFile: path("server.key"))
  }
}
