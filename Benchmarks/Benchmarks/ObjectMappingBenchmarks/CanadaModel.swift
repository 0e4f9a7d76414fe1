import ObjectMapping

// The canada.json model: a GeoJSON feature collection whose one polygon holds about 111,000
// coordinates as `[[[Double]]]`. One struct per type, decoded by both sides (see
// TwitterModel.swift).

struct CanadaFeatureCollection: Codable, Equatable {
  var type = ""
  var features: [CanadaFeature] = []
}

struct CanadaFeature: Codable, Equatable {
  var type = ""
  var properties: [String: String] = [:]
  var geometry = CanadaGeometry()
}

struct CanadaGeometry: Codable, Equatable {
  var type = ""
  var coordinates: [[[Double]]] = []
}

// MARK: - Mappings (the same keys as the Codable properties above)

enum CanadaMappings {
  static let featureCollection = Mapping(CanadaFeatureCollection.init) {
    Attribute("type", \.type)
    Relationship("features", \.features, feature)
  }

  static let feature = Mapping(CanadaFeature.init) {
    Attribute("type", \.type)
    Attribute("properties", \.properties)
    Relationship("geometry", \.geometry, geometry)
  }

  static let geometry = Mapping(CanadaGeometry.init) {
    Attribute("type", \.type)
    Attribute("coordinates", \.coordinates)
  }
}
