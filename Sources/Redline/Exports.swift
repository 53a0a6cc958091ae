// The library product is a facade: `import Redline` gives the model, the registry and route decision, the
// batch runner, check, Scrivener migration and compare, each its own module underneath.
@_exported import RedlineCore
@_exported import RedlineCompare
@_exported import RedlineConversion
@_exported import RedlineBatch
@_exported import RedlineCheck
@_exported import RedlineMigration
@_exported import RedlinePDF
