/// The baud rates a port's board may talk at, which the probe tries in turn, and the rate the
/// link's timers then count with (docs/protocol.md §4.3 and §6.4).
///
/// hapticctl's boards do not share one rate: each board file names its own (`link.baud`; the
/// Uno + DRV2605L 500 000, the Uno + H-bridge 115 200, docs/boards.md "The serial link"). A
/// serial line carries a board's answer only at the board's rate, so the probe finds it by
/// trying each. A pseudo-terminal carries bytes at any rate, so every candidate "works" there;
/// the rate bytes really move at is the far side's (an emulated Uno paces them at its UART's),
/// which the answering board's own file names.
public struct LineRates: Sendable {
  /// The rates to try, in order; never empty.
  public let candidates: [Int]
  /// The rate each known board id talks at.
  private let rateOfBoard: [String: Int]

  /// Rates from known boards: each board's `baud`, `preferring`'s first (then the others', in
  /// their order, each once), and its board id's rate for a board that answers on a
  /// pseudo-terminal. No boards: 115 200.
  public init(boards: [(id: String, baud: Int)], preferring preferred: String? = nil) {
    var ordered: [Int] = []
    if let preferred, let own = boards.first(where: { $0.id == preferred }) { ordered.append(own.baud) }
    for board in boards where !ordered.contains(board.baud) { ordered.append(board.baud) }
    candidates = ordered.isEmpty ? [115_200] : ordered
    rateOfBoard = Dictionary(boards.map { ($0.id, $0.baud) }, uniquingKeysWith: { _, last in last })
  }

  private init(fixed baud: Int) {
    candidates = [baud]
    rateOfBoard = [:]
  }

  /// Only `baud`, for the line and the timers alike (what `--baud N` asks for).
  public static func fixed(_ baud: Int) -> LineRates { LineRates(fixed: baud) }

  /// The rates of hapticctl's built-in boards (`Boards/*.json`; a test keeps the two in step),
  /// for a library caller that names no board files.
  public static let builtIn = LineRates(boards: [
    ("sim-erm", 115_200), ("sim-lra", 115_200), ("uno-drv2605l", 500_000), ("uno-hbridge", 115_200),
  ])

  /// The rate the link's timers count with once board `boardID` answered at `answered`: on a
  /// line that takes any rate, the rate the board's file names (when known); else the one it
  /// answered at, the line's.
  public func timingRate(answeredAt answered: Int, boardID: String, acceptsAnyRate: Bool) -> Int {
    acceptsAnyRate ? rateOfBoard[boardID] ?? answered : answered
  }

  /// Rates as a phrase: "500000 or 115200 baud".
  static func phrase(_ rates: [Int]) -> String {
    let numbers = rates.map(String.init)
    return (numbers.count > 1 ? numbers.dropLast().joined(separator: ", ") + " or " + numbers.last! : numbers[0]) + " baud"
  }
}
