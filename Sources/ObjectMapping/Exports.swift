// The document model and its formats (`Node`, `JSONReadingOptions`, `FormatError`, …) are a
// separate target that knows nothing of mappings; re-exporting it keeps one `import
// ObjectMapping` for users.
@_exported import ObjectMappingDocument
