@_exported import RedlineCore
@_exported import RedlineCompare
