#if canImport(Glibc)
  import Glibc
#endif

/// The C library's mathematics, the only part of Glibc the pure core needs: the core imports
/// FoundationEssentials, which (unlike Foundation) does not re-export it. Kept to this one
/// file so the rest of the core, and Guidance, never import Glibc (a test holds Guidance to
/// that, since Glibc is also where I/O and the clock live).
public enum Trigonometry {
  @inlinable public static func sin(_ x: Double) -> Double { Glibc.sin(x) }
  @inlinable public static func cos(_ x: Double) -> Double { Glibc.cos(x) }
  @inlinable public static func asin(_ x: Double) -> Double { Glibc.asin(x) }
  @inlinable public static func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
  @inlinable public static func exp(_ x: Double) -> Double { Glibc.exp(x) }
}
