import Foundation
import ShowcaseKit

// `swift run showcase --help` for the options. The work is done in ShowcaseKit, which the tests
// also use; this file only prints and exits.
let arguments = Array(CommandLine.arguments.dropFirst())
var outcome: ShowcaseCommand.Outcome
switch StreamingShowcase.requestedSize(arguments) {
case .success(let megabytes)?:
  outcome = await StreamingShowcase.run(megabytes: megabytes) { print($0) }
case .failure(let problem)?:
  outcome = ShowcaseCommand.Outcome(
    errorOutput: "showcase: \(problem.message)\n\(ShowcaseCommand.usage)\n", status: 2)
case nil:
  outcome = ShowcaseCommand.run(arguments)
}
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
