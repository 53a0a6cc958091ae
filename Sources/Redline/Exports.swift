@_exported import RedlineCore
