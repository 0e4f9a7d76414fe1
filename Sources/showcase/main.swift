import Foundation
import ShowcaseKit

// `swift run showcase --help` for the options. The work is done in ShowcaseKit, which the tests
// also use; this file only prints and exits.
let outcome = ShowcaseCommand.run(Array(CommandLine.arguments.dropFirst()))
if !outcome.output.isEmpty {
  FileHandle.standardOutput.write(Data(outcome.output.utf8))
}
if !outcome.errorOutput.isEmpty {
  FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
}
exit(outcome.status)
