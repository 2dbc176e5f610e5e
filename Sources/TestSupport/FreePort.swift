import Foundation

/// A loopback TCP port the OS says is free: a socket is bound to port 0 and released, for a server
/// (nginx, PostgreSQL) that must be told its port before it binds it.
func freeLoopbackPort() throws -> Int {
    let held = try RefusingPort()
    defer { held.release() }
    return held.port
}

/// Whether a server accepts connections on the loopback `port` yet (a server started as a separate
/// process, waited for before a test uses it).
func loopbackPortAccepts(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

struct FreePortError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A loopback TCP port held by a socket that is bound but never listens: a connection to it is refused at
/// once, and no other server of the test run can take the port (as one could after a server on it
/// stopped: a test that needs "connection refused, then an origin on that port" got another test's server
/// instead). `release()` frees it for the origin that comes back.
public final class RefusingPort: @unchecked Sendable {
    public let port: Int
    private var descriptor: Int32

    /// Holds a port the OS picks. (Not SO_REUSEADDR: with it, a server that sets it could bind the port too.)
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FreePortError(message: "cannot hold a port: \(reason)")
        }
        self.descriptor = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Hands the bound socket over, for a server of the caller's own to listen on; `release()` and the
    /// deinit then leave it alone (the caller closes it).
    public func takeDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    /// Frees the port (once).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
