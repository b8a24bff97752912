import TechoCommands
import Foundation
exit(Techo.main(CommandLine.arguments))
