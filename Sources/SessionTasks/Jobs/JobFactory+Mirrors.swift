import TransferEngine
import TransferModels

extension JobFactory {
    /// A download's stored sources as its job's mirrors; nil without mirrors (a metalink URL not read yet
    /// has none: its job fetches the document).
    static func mirrorSources(_ sources: TransferSources?) -> MirrorSources? {
        guard let sources else { return nil }
        // A metalink URL not read yet: its job fetches the document; only the expected length is known.
        guard !sources.mirrors.isEmpty else { return MirrorSources(urls: [], expectedLength: sources.expectedLength) }
        return MirrorSources(
            urls: sources.mirrors, expectedLength: sources.expectedLength, pieces: sources.pieces.map(MirrorSources.Pieces.init))
    }
}
