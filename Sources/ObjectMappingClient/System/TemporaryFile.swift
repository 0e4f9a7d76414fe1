import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new file at `path`, readable and writable by this user only, made only if nothing is
/// there (not through a symbolic link) and unlinked at once, so that it disappears with its
/// descriptor: the spool of ``URLSessionTransport``'s streamed bodies.
///
/// - Parameter path: Where to make the file (a new name in the temporary directory).
/// - Returns: The open file, closed when the handle is released; `nil` when it cannot be made.
func unlinkedNewFile(at path: String) -> FileHandle? {
  let descriptor = unsafe open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
  guard descriptor >= 0 else { return nil }
  unsafe unlink(path)
  return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
}
