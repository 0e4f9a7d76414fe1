import class Foundation.NSNumber

/// The first character of `number`'s Objective-C type encoding (`"d"`, `"q"`, `"c"`, …): how
/// the Foundation reader tells a boolean, an integer and a floating-point `NSNumber` apart.
///
/// Foundation returns the encoding as a C string (a pointer), valid while `number` lives; only
/// its first character is read, during this call.
package func _storageTypeCode(of number: NSNumber) -> CChar {
  unsafe number.objCType.pointee
}
