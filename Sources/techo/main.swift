import Foundation
import TechoCommands
import TechoServer

exit(Techo.main(CommandLine.arguments, extraCommands: [ServeCommand.self]))
