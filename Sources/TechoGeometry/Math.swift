// Thin wrappers over the C math library, so algorithm files need not import Foundation.

import Foundation

@inlinable func acosPrecise(_ x: Double) -> Double { Foundation.acos(x) }
@inlinable func atan2Precise(_ y: Double, _ x: Double) -> Double { Foundation.atan2(y, x) }
@inlinable func tanPrecise(_ x: Double) -> Double { Foundation.tan(x) }
