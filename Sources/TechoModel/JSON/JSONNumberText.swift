// Numbers as the JSON writer spells them, appended as bytes without Foundation and without a
// String per number: integers below 2^53 as integers, other values in their shortest
// round-trip form, exactly as `Double.description` gives it.
//
// The fast case is a value with at most 15 significant digits at or above 1e-4 (what page
// files hold: coordinates, pressures, placements). For those the shortest form can be found by
// trying k = 1, 2, … fraction digits: m = round(|d| · 10^k) is the only integer whose m / 10^k
// can round to d (the round-trip interval, scaled by 10^k, is narrower than 0.23 while
// m < 10^15, and the product's own rounding error is below 0.12), so the first k with
// m / 10^k == d (one correctly rounded division of two exact values) gives the fewest digits,
// and it is the digits `description` prints: with at most 15 significant digits no other
// decimal of that length rounds to d (DBL_DIG). `description` writes such values plainly
// ("0.0001", "123.45"); below 1e-4 it switches to an exponent ("9.9e-05"), and those, like any
// value that needs 16 or 17 digits, are left to it.

enum JSONNumberText {
    /// Appends `d` as the writer spells it. Non-finite values have no JSON form; the model
    /// never holds them, so they trap.
    static func append(_ d: Double, to out: ByteSink) {
        precondition(d.isFinite, "JSON cannot hold \(d)")
        let a = Swift.abs(d)
        // An integer below 2^53 (`Double(Int64(a)) == a`: truncation is exact there, and no
        // call into libm's `round` as `rounded()` makes on baseline x86-64).
        if a < 9_007_199_254_740_992 && Double(UInt64(a)) == a {
            if d < 0 { out.append(UInt8(ascii: "-")) }
            appendDigits(UInt64(a), count: 0, to: out)
            return
        }
        if a >= 1e-4, let (m, k, p) = shortestDecimal(a) {
            if d < 0 { out.append(UInt8(ascii: "-")) }
            appendDigits(m / p, count: 0, to: out)
            out.append(UInt8(ascii: "."))
            appendDigits(m % p, count: k, to: out)
            return
        }
        out.append(string: d.description)
    }

    /// The text of `d` as a string (error messages, unit lengths).
    static func string(_ d: Double) -> String {
        let out = ByteSink(capacity: 32)
        append(d, to: out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// For a non-integer `a > 0`: the integer `m` and fraction digit count `k` of its shortest
    /// decimal `m / 10^k` with at most 15 significant digits, with `p = 10^k`; nil when it
    /// needs more digits.
    static func shortestDecimal(_ a: Double) -> (m: UInt64, k: Int, p: UInt64)? {
        var scale = 1.0
        var p: UInt64 = 1
        for k in 1...19 {
            scale *= 10  // exact: every 10^k up to 10^22 is a double
            p *= 10
            let x = a * scale
            if x >= 1e15 { return nil }
            // x rounded half away from zero; x - t is exact (t is x's integer part).
            let t = Double(UInt64(x))
            let m = x - t >= 0.5 ? t + 1 : t
            if m >= 1e15 { return nil }
            if m / scale == a { return (UInt64(m), k, p) }
        }
        return nil
    }

    /// Appends `v` in decimal, left-padded with zeros to `count` digits.
    @inline(__always)
    static func appendDigits(_ v: UInt64, count: Int, to out: ByteSink) {
        var n = 1
        var t = v
        while t >= 10 { t /= 10; n += 1 }
        n = Swift.max(n, count)
        out.write(n) { p in
            var x = v
            var i = n - 1
            while i >= 0 {
                p[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: x % 10)
                x /= 10
                i -= 1
            }
        }
    }
}
