// The list of commands, in the order `techo --help` shows them.

let allCommands: [TechoCommand.Type] = [
]
