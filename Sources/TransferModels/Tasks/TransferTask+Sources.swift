extension TransferTask {
    /// Sets a download's `mirrors`, `expectedLength` and `metalink` from its sources (a metalink blob's
    /// mirrors are those its document listed; a `metalink.url` task shows none: each attempt reads it).
    public mutating func setSources(_ sources: TransferSources?) {
        mirrors = sources.flatMap { $0.mirrors.isEmpty ? nil : $0.mirrors }
        expectedLength = sources?.expectedLength
        metalink = sources?.metalink
    }
}
