/// Reads Swift numbers from the text of a JSON number (already checked by the ``Scanner``).
///
///     NumberParsing.integer(Int8.self, from: text, flags: flags)  // "300" → nil, "1e2" → 100
///
/// Out of range is nil, never a trap: the caller turns it into a shape error.
enum NumberParsing {
  /// The value of `text` as a `T`, or nil when it is not a whole number in `T`'s range.
  ///
  /// A fraction or exponent is fine when the value is whole (`1.0`, `1e2`); the check is exact,
  /// with no detour through `Double`.
  @inline(__always)
  static func integer<T: FixedWidthInteger>(
    _ type: T.Type, from text: UnsafeBufferPointer<UInt8>, flags: UInt8
  ) -> T? {
    guard flags & Token.integer != 0 else { return exactInteger(type, from: text) }
    let negative = flags & Token.negative != 0
    var i = negative ? 1 : 0
    var value: T = 0
    if negative {
      guard T.isSigned else { return text.count == 2 && text[1] == ASCII.zero ? 0 : nil }
      while i < text.count {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.subtractingReportingOverflow(
          T(truncatingIfNeeded: text[i] &- ASCII.zero))
        guard !o1 && !o2 else { return nil }
        value = next
        i += 1
      }
    } else {
      while i < text.count {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.addingReportingOverflow(
          T(truncatingIfNeeded: text[i] &- ASCII.zero))
        guard !o1 && !o2 else { return nil }
        value = next
        i += 1
      }
    }
    return value
  }

  /// The value of the number without fraction or exponent that starts at `start` in `bytes`
  /// (the scanner checked it), as ``integer(_:from:flags:)`` reads its text: it ends at the
  /// first byte that is not a digit.
  @inline(__always)
  static func integer<T: FixedWidthInteger>(
    _ type: T.Type, in bytes: UnsafeBufferPointer<UInt8>, at start: Int
  ) -> T? {
    var i = start
    guard i >= 0 && i < bytes.count else { return nil }
    let negative = bytes[i] == ASCII.minus
    if negative {
      i += 1
      guard T.isSigned else {
        // NB: `-0` is 0 in any type, as for the text.
        guard i < bytes.count, bytes[i] == ASCII.zero else { return nil }
        return i + 1 < bytes.count && ASCII.isDigit(bytes[i + 1]) ? nil : 0
      }
    }
    var value: T = 0
    while i < bytes.count {
      let digit = bytes[i] &- ASCII.zero
      guard digit < 10 else { break }
      guard let next = appending(digit, to: value, negative: negative) else { return nil }
      value = next
      i += 1
    }
    return value
  }

  /// `value` with the decimal `digit` written after it (subtracted for a `negative` number);
  /// nil when that leaves `T`'s range.
  @inline(__always)
  static func appending<T: FixedWidthInteger>(
    _ digit: UInt8, to value: T, negative: Bool
  ) -> T? {
    let (times10, o1) = value.multipliedReportingOverflow(by: 10)
    let (next, o2) =
      negative
      ? times10.subtractingReportingOverflow(T(truncatingIfNeeded: digit))
      : times10.addingReportingOverflow(T(truncatingIfNeeded: digit))
    return o1 || o2 ? nil : next
  }

  /// Whether `text` is a whole number (`3`, `3.0`, `3e5`, not `3.5` or `3e-1`), whatever its size.
  static func isWhole(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let parts = Parts(text)
    let point = parts.integerDigits.count + parts.exponent
    var k = max(point, 0)
    while k < parts.digitCount {
      if parts.digit(k) != 0 { return false }
      k += 1
    }
    return true
  }

  /// The slow path of ``integer(_:from:flags:)``: a number with a fraction or an exponent.
  private static func exactInteger<T: FixedWidthInteger>(
    _ type: T.Type, from text: UnsafeBufferPointer<UInt8>
  ) -> T? {
    let parts = Parts(text)
    guard parts.hasNonZeroDigit else { return 0 }
    if parts.negative && !T.isSigned { return nil }
    // NB: the decimal point falls after `point` digits; digits past it must all be zero.
    let point = parts.integerDigits.count + parts.exponent
    var value: T = 0
    var k = 0
    let digitCount = parts.digitCount
    while k < max(point, digitCount) {
      let digit = k < digitCount ? parts.digit(k) : 0
      if k >= point {
        guard digit == 0 else { return nil }
      } else {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let step = T(truncatingIfNeeded: digit)
        let (next, o2) =
          parts.negative
          ? times10.subtractingReportingOverflow(step) : times10.addingReportingOverflow(step)
        guard !o1 && !o2 else { return nil }
        value = next
      }
      k += 1
    }
    return value
  }

  /// The value of `text` as a `Double`, or nil when it is beyond `Double`'s range.
  static func double(from text: UnsafeBufferPointer<UInt8>, flags: UInt8) -> Double? {
    let negative = flags & Token.negative != 0
    // NB: Clinger's fast path: a mantissa below 2^53 times or over an exact power of ten
    // rounds once, so it is the correctly rounded result.
    let parts = Parts(text)
    if let mantissa = parts.smallMantissa, mantissa < 1 << 53 {
      let exponent = parts.exponent - parts.fractionDigits.count
      if exponent >= -22 && exponent <= 22 {
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
      }
    }
    guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return value
  }

  /// The value of `text` as a `Float`, or nil when it is beyond `Float`'s range.
  static func float(from text: UnsafeBufferPointer<UInt8>, flags: UInt8) -> Float? {
    if flags & Token.integer != 0, text.count <= 8,
      let small = integer(Int32.self, from: text, flags: flags),
      small.magnitude < 1 << 24
    {
      return flags & Token.negative != 0 && small == 0 ? -0.0 : Float(small)
    }
    // NB: straight from the text, not through Double: rounding twice can be off by one ulp.
    guard let value = Float(String(decoding: text, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return value
  }

  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The pieces of a JSON number's text.
  private struct Parts {
    var negative = false
    var integerDigits: UnsafeBufferPointer<UInt8>
    var fractionDigits: UnsafeBufferPointer<UInt8>
    /// The exponent, clamped to ±1,000,000 (far past any finite value).
    var exponent = 0

    init(_ text: UnsafeBufferPointer<UInt8>) {
      var i = 0
      if i < text.count, text[i] == ASCII.minus {
        negative = true
        i += 1
      }
      let integerStart = i
      while i < text.count, ASCII.isDigit(text[i]) { i += 1 }
      integerDigits = UnsafeBufferPointer(rebasing: text[integerStart..<i])
      var fractionStart = i
      if i < text.count, text[i] == ASCII.dot {
        i += 1
        fractionStart = i
        while i < text.count, ASCII.isDigit(text[i]) { i += 1 }
      }
      fractionDigits = UnsafeBufferPointer(rebasing: text[fractionStart..<i])
      if i < text.count, text[i] | 0x20 == UInt8(ascii: "e") {
        i += 1
        var sign = 1
        if i < text.count, text[i] == ASCII.minus || text[i] == ASCII.plus {
          if text[i] == ASCII.minus { sign = -1 }
          i += 1
        }
        var magnitude = 0
        while i < text.count, ASCII.isDigit(text[i]) {
          magnitude = min(magnitude * 10 + Int(text[i] &- ASCII.zero), 1_000_000)
          i += 1
        }
        exponent = sign * magnitude
      }
    }

    var digitCount: Int { integerDigits.count + fractionDigits.count }

    func digit(_ k: Int) -> UInt8 {
      let byte =
        k < integerDigits.count ? integerDigits[k] : fractionDigits[k - integerDigits.count]
      return byte &- ASCII.zero
    }

    var hasNonZeroDigit: Bool {
      integerDigits.contains { $0 != ASCII.zero } || fractionDigits.contains { $0 != ASCII.zero }
    }

    /// All the digits as one integer, when there are at most 19 of them.
    var smallMantissa: UInt64? {
      guard digitCount <= 19 else { return nil }
      var value: UInt64 = 0
      for k in 0..<digitCount { value = value &* 10 &+ UInt64(digit(k)) }
      return value
    }
  }
}
