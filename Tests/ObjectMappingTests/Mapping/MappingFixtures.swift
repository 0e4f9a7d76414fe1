import Foundation
import ObjectMapping

struct Author: Equatable {
  var name = ""
  var email: String?
}

struct Article: Equatable {
  var id = 0
  var title = ""
  var body = ""
  var author: Author?
  var publishedAt: Date?
  var tags: [String] = []
}

let authorMapping = Mapping(Author.init) {
  Attribute("name", \.name)
  Attribute("email", \.email)
}

let articleMapping = Mapping(Article.init) {
  Attribute("id", \.id)
  Attribute("title", \.title)
  Attribute("body", \.body, default: "")
  Attribute("publication_date", \.publishedAt, .date(format: "M/d/yyyy"))
  Attribute("meta.tags", \.tags, default: [])
  Relationship("author", \.author, authorMapping)
}

/// A UTC date from fields.
func utc(
  _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
) -> Date {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
  let components = DateComponents(
    year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  return calendar.date(from: components) ?? Date(timeIntervalSince1970: .nan)
}

/// The errors a mapping call threw, one line each; empty when it did not throw.
func errorLines<T>(_ body: () throws -> T) -> [String] {
  do {
    _ = try body()
    return []
  } catch let failure as MappingErrors {
    return failure.errors.map(\.description)
  } catch {
    return ["unexpected error: \(error)"]
  }
}
