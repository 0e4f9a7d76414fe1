import Foundation
import ShowcaseKit

// `swift run showcase --help` for the options. The work is done in ShowcaseKit, which the tests
// also use; this file only prints and exits.
let arguments = Array(CommandLine.arguments.dropFirst())
var outcome = ShowcaseCommand.run(arguments)
if arguments.isEmpty, outcome.status == 0 {
  // The object manager's section talks to a server it starts itself, so it runs here, async.
  outcome.output += "\n" + (await ObjectManagerShowcase.section()).text
  outcome.output += "\n" + DefinitionFileShowcase.section().text
  outcome.output += "\n" + (await PersistentStoreShowcase.section()).text
}
if !outcome.output.isEmpty {
  FileHandle.standardOutput.write(Data(outcome.output.utf8))
}
if !outcome.errorOutput.isEmpty {
  FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
}
exit(outcome.status)
