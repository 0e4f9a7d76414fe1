import Foundation
import ObjectMapping

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP connection on the system's sockets, for ``SocketTransport``: the one place of the
/// client that touches pointers (socket addresses and read and write buffers), behind safe
/// functions that take and return byte arrays.
///
/// Every call blocks the calling thread (the transport calls them on a queue of its own, never
/// on the cooperative pool) but never longer than `idleTimeout` without data, and returns within
/// a poll interval (50 ms) of ``cancel()``, which another thread may call at any time.
final class Socket: Sendable {
  private let descriptor: Int32
  /// Set by ``cancel()``; checked between polls.
  private let cancelled = _Locked(false)
  /// How long a call may wait without the socket becoming ready.
  private let idleTimeout: Duration

  private init(descriptor: Int32, idleTimeout: Duration) {
    self.descriptor = descriptor
    self.idleTimeout = idleTimeout
  }

  deinit {
    close(descriptor)
  }

  /// Stops the connection: a call in progress or to come throws `URLError(.cancelled)`.
  func cancel() {
    cancelled.withLock { $0 = true }
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  private var isCancelled: Bool { cancelled.withLock { $0 } }

  /// Connects to `host` (a name or an address; an IPv6 address without brackets) at `port`,
  /// trying each address the name resolves to.
  ///
  /// - Throws: `URLError`: `.cannotFindHost`, `.cannotConnectToHost`, `.timedOut`,
  ///   `.cancelled` (when `cancellation` is cancelled meanwhile).
  static func connect(
    host: String, port: Int, idleTimeout: Duration, cancellation: SocketCancellation
  ) throws(URLError) -> Socket {
    var hints = unsafe addrinfo()
    unsafe hints.ai_family = AF_UNSPEC
    #if canImport(Darwin)
      unsafe hints.ai_socktype = SOCK_STREAM
    #else
      unsafe hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    guard unsafe getaddrinfo(host, String(port), &hints, &list) == 0, let first = unsafe list
    else {
      throw URLError(.cannotFindHost)
    }
    defer { unsafe freeaddrinfo(first) }
    var lastError = URLError(.cannotConnectToHost)
    var current: UnsafeMutablePointer<addrinfo>? = unsafe first
    while let info = unsafe current {
      unsafe current = info.pointee.ai_next
      let descriptor = unsafe socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
      guard descriptor >= 0 else { continue }
      let connection = Socket(descriptor: descriptor, idleTimeout: idleTimeout)
      cancellation.attach(connection)
      #if canImport(Darwin)
        var yes: Int32 = 1
        unsafe setsockopt(
          descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
      #endif
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      let started = unsafe systemConnect(
        descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
      if started == 0 {
        return connection
      }
      guard errno == EINPROGRESS else { continue }
      do {
        try connection.wait(for: Int16(POLLOUT))
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        unsafe getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
        if failure == 0 { return connection }
      } catch {
        if error.code == .cancelled || error.code == .timedOut { throw error }
        lastError = error
      }
    }
    throw lastError
  }

  /// Waits until the socket is ready for one of `events` (polls of 50 ms, checking
  /// cancellation), and returns the events that happened; throws `.timedOut` after
  /// `idleTimeout`, `.cancelled` once cancelled.
  @discardableResult
  private func wait(for events: Int16) throws(URLError) -> Int16 {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: idleTimeout)
    while true {
      if isCancelled { throw URLError(.cancelled) }
      var request = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = unsafe poll(&request, 1, 50)
      if ready > 0 { return request.revents }
      if ready < 0, errno != EINTR { throw URLError(.networkConnectionLost) }
      if clock.now >= deadline { throw URLError(.timedOut) }
    }
  }

  /// Writes `bytes`, stopping early when the peer starts to answer (an HTTP server refusing a
  /// body it does not want to read: a `413`).
  ///
  /// - Returns: Whether every byte was written (`false`: the peer answered first).
  /// - Throws: `URLError`: `.networkConnectionLost` when the peer closed, `.timedOut`,
  ///   `.cancelled`.
  @discardableResult
  func write(_ bytes: [UInt8]) throws(URLError) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let events = try wait(for: Int16(POLLOUT) | Int16(POLLIN))
      if isCancelled { throw URLError(.cancelled) }
      if events & Int16(POLLIN) != 0, events & Int16(POLLOUT) == 0 { return false }
      let sent = unsafe bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        #if canImport(Darwin)
          return unsafe Darwin.send(descriptor, base + offset, buffer.count - offset, 0)
        #else
          return unsafe systemSend(descriptor, base + offset, buffer.count - offset)
        #endif
      }
      if sent > 0 {
        offset += sent
      } else if sent < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK {
        continue
      } else {
        throw URLError(isCancelled ? .cancelled : .networkConnectionLost)
      }
    }
    return true
  }

  /// Reads what arrived, at most `maximum` bytes; empty at the end of the stream.
  ///
  /// - Throws: `URLError`: `.networkConnectionLost` on a reset, `.timedOut` after
  ///   `idleTimeout` without data, `.cancelled`.
  func read(maximum: Int) throws(URLError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: max(1, maximum))
    while true {
      try wait(for: Int16(POLLIN))
      if isCancelled { throw URLError(.cancelled) }
      let count = unsafe buffer.withUnsafeMutableBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return 0 }
        return unsafe recv(descriptor, base, bytes.count, 0)
      }
      if count >= 0 {
        buffer.removeLast(buffer.count - count)
        return buffer
      }
      if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
      throw URLError(isCancelled ? .cancelled : .networkConnectionLost)
    }
  }
}

/// Where a transfer's task cancellation meets its socket: the socket, once connected, is
/// cancelled when the task is, even if that happened before it was made.
final class SocketCancellation: Sendable {
  private let state = _Locked<(cancelled: Bool, socket: Socket?)>((false, nil))

  /// Cancels the attached socket, and any attached later.
  func cancel() {
    let socket = state.withLock { state -> Socket? in
      state.cancelled = true
      return state.socket
    }
    socket?.cancel()
  }

  /// Whether the transfer was cancelled.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Attaches `socket` (cancelled at once when the transfer already was).
  func attach(_ socket: Socket) {
    let cancelled = state.withLock { state -> Bool in
      state.socket = socket
      return state.cancelled
    }
    if cancelled { socket.cancel() }
  }
}

#if !canImport(Darwin)
  /// `connect(2)`, named apart from ``Socket/connect(host:port:idleTimeout:cancellation:)``.
  private func systemConnect(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
  ) -> Int32 {
    unsafe connect(descriptor, address, length)
  }

  /// `send(2)` without `SIGPIPE` (a peer that closed is an error, not the process's end).
  private func systemSend(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    unsafe send(descriptor, base, count, Int32(MSG_NOSIGNAL))
  }
#else
  private func systemConnect(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
  ) -> Int32 {
    unsafe Darwin.connect(descriptor, address, length)
  }
#endif
