// `import Tether` brings in the whole Combine-compatible API.
@_exported import TetherCore
