import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Who is on the other end of a connection, as the kernel says (SO_PEERCRED, and
/// SO_PEERGROUPS for the supplementary groups the process really holds).
public struct PeerCredentials: Sendable, Hashable {
  public var pid: Int32
  public var uid: uid_t
  public var gid: gid_t
  public var groups: [gid_t]

  public init(pid: Int32, uid: uid_t, gid: gid_t, groups: [gid_t]) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
    self.groups = groups
  }

  /// Reads the credentials of `fd`'s peer; nil when the kernel will not say.
  static func of(_ fd: Int32) -> PeerCredentials? {
    // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc's module hides it.
    var credentials: [UInt32] = [0, 0, 0]
    var length = socklen_t(3 * MemoryLayout<UInt32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
    return PeerCredentials(
      pid: Int32(bitPattern: credentials[0]), uid: credentials[1], gid: credentials[2], groups: peerGroups(fd))
  }

  private static let soPeerGroups: Int32 = 59

  private static func peerGroups(_ fd: Int32) -> [gid_t] {
    var groups = [gid_t](repeating: 0, count: 64)
    for _ in 0..<2 {
      var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
      if getsockopt(fd, SOL_SOCKET, soPeerGroups, &groups, &length) == 0 {
        return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
      }
      guard errno == ERANGE else { return [] }
      groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size + 1)
    }
    return []
  }
}

/// Who may change state: root, the daemon's own user, and members of the socket group
/// (by the peer's primary group, the groups its process holds, or the group database for
/// its user). Everyone who can open the socket may read.
public struct AccessPolicy: Sendable {
  public var daemonUID: uid_t
  public var socketGID: gid_t
  /// The groups the account of a uid belongs to; the group database in production.
  public var accountGroups: @Sendable (uid_t, gid_t) -> [gid_t]

  public init(
    daemonUID: uid_t, socketGID: gid_t,
    accountGroups: @escaping @Sendable (uid_t, gid_t) -> [gid_t] = GroupDatabase.groups
  ) {
    self.daemonUID = daemonUID
    self.socketGID = socketGID
    self.accountGroups = accountGroups
  }

  public func mayChangeState(_ peer: PeerCredentials) -> Bool {
    if peer.uid == 0 || peer.uid == daemonUID { return true }
    if peer.gid == socketGID || peer.groups.contains(socketGID) { return true }
    return accountGroups(peer.uid, peer.gid).contains(socketGID)
  }
}

/// Lookups in the system's user and group database.
public enum GroupDatabase {
  /// The groups of the account with `uid` (getgrouplist), empty when it has no name.
  @Sendable public static func groups(uid: uid_t, primary: gid_t) -> [gid_t] {
    guard let name = userName(uid) else { return [] }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, primary, &groups, &count) == -1 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(name, primary, &groups, &count) != -1 else { return [] }
    }
    return Array(groups.prefix(Int(count)))
  }

  public static func userName(_ uid: uid_t) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
      return nil
    }
    return String(cString: name)
  }

  public static func groupID(named name: String) -> gid_t? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 16384)
    guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return entry.gr_gid
  }

  public static func groupName(_ gid: gid_t) -> String? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 16384)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else {
      return nil
    }
    return String(cString: name)
  }
}
