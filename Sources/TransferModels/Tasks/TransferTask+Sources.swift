extension TransferTask {
    /// Sets a download's `mirrors`, `expectedLength` and `metalink` from its sources (a metalink task's
    /// mirrors are those its document listed, none before a fetched one was read).
    public mutating func setSources(_ sources: TransferSources?) {
        mirrors = sources.map(\.mirrors)
        expectedLength = sources?.expectedLength
        metalink = sources?.metalink
    }
}
