// `import Tether` brings in the whole Combine-compatible API: the core and the Foundation
// integration, as one module name.
@_exported import TetherCore
@_exported import TetherFoundation
