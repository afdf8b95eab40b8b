@testable import TetherCore

/// How the tests read a ``FlattenInners``: what the machine itself never asks of it.
extension FlattenInners {
    /// The indices of the inners held, oldest first.
    var heldIndices: [Int] {
        indexes.indices.compactMap { flags[$0].contains(.held) ? indexes[$0] : nil }
            + (newestFlags.contains(.held) ? [newestIndex] : [])
    }

    /// The entries kept, holes included: the arrays' and the newest inner's.
    var entries: Int {
        indexes.count + (newestFlags.contains(.held) ? 1 : 0)
    }

    func holds(_ index: Int) -> Bool {
        flags(of: index) != nil
    }

    func isUnlimited(_ index: Int) -> Bool {
        flags(of: index)?.contains(.unlimited) == true
    }
}
