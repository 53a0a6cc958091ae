import RedlineCLI

RedlineCommand.runMain()
