extension RandomAccessCollection where Index == Int {
  /// The element at `index`, or nil when it is out of range: for positions a host sends.
  subscript(safe index: Int) -> Element? {
    index >= startIndex && index < endIndex ? self[index] : nil
  }
}
