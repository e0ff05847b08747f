/*
Abstract:
A resume validator as the queue stores it: the entity tag and Last-Modified columns of a download's row.
*/

extension DownloadRow {
    /// The validator the bytes on disk belong to: the stored entity tag, else the Last-Modified date.
    var resumeValidator: ResumeValidator? {
        entityTag.map { .entityTag($0) } ?? lastModified.map { .lastModified($0) }
    }
}

extension DownloadStore.Validator {
    /// The columns of a response's validator: one of the two, or neither.
    init(_ validator: ResumeValidator?) {
        switch validator {
        case let .entityTag(tag): self.init(entityTag: tag, lastModified: nil)
        case let .lastModified(date): self.init(entityTag: nil, lastModified: date)
        case nil: self.init(entityTag: nil, lastModified: nil)
        }
    }
}
