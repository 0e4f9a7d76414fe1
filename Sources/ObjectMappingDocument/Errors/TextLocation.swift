/// A position in a text payload: byte offset (from 0), line and column (from 1).
///
/// Columns count Unicode scalars from the start of the line, so a column points at the
/// character a reader sees in an editor.
public struct TextLocation: Sendable, Equatable, CustomStringConvertible {
  /// The byte offset from the start of the input, from 0.
  public var offset: Int
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, counted in Unicode scalars.
  public var column: Int

  /// Creates a location.
  public init(offset: Int, line: Int, column: Int) {
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// `line 2, column 9 (byte 17)`.
  public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
