@testable import TetherCore

/// How the tests read a ``FlattenInners``: what the machine itself never asks of it.
extension FlattenInners {
    /// The indices of the inners held, oldest first.
    var heldIndices: [Int] {
        indexes.indices.compactMap { flags[$0].contains(.held) ? indexes[$0] : nil }
    }

    func holds(_ index: Int) -> Bool {
        flags(of: index) != nil
    }

    func isUnlimited(_ index: Int) -> Bool {
        flags(of: index)?.contains(.unlimited) == true
    }
}
