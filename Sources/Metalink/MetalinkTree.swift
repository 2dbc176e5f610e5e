import Foundation
import FoundationXML

/// A Metalink document as a tree of elements in its namespace, text trimmed: what `MetalinkParser`
/// reads. Built from `XMLParser`'s callbacks, bounded in depth and element count.
enum MetalinkTree {
    final class Element {
        let name: String
        let namespace: String?
        let attributes: [String: String]
        var children: [Element] = []
        var rawText = ""

        init(name: String, namespace: String?, attributes: [String: String]) {
            (self.name, self.namespace, self.attributes) = (name, namespace, attributes)
        }

        var text: String { rawText.trimmingCharacters(in: .whitespacesAndNewlines) }

        /// The children of this name in the Metalink namespace (extensions in other namespaces are skipped).
        func children(named name: String) -> [Element] {
            children.filter { $0.name == name && $0.namespace == MetalinkParser.namespace }
        }

        /// The one child of this name; nil when there is none, an error when there are several.
        func single(_ name: String, at field: String) throws(MetalinkError) -> Element? {
            let found = children(named: name)
            guard found.count <= 1 else { throw MetalinkError(field: field, reason: "must appear at most once") }
            return found.first
        }
    }

    static let maximumDepth = 16
    static let maximumElements = 200_000

    /// The root element, or the parser's complaint.
    static func read(_ data: Data) throws(MetalinkError) -> Element {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        // XMLParser may report success and still record an error (a mismatched end tag): both are checked.
        if let error = builder.error { throw error }
        guard parsed, parser.parserError == nil, let root = builder.root else {
            let line = parser.lineNumber
            throw MetalinkError(field: "metalink", reason: "is not well-formed XML (line \(line))")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var stack: [Element] = []
        var count = 0
        var error: MetalinkError?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            count += 1
            guard stack.count < MetalinkTree.maximumDepth, count <= MetalinkTree.maximumElements else {
                error = MetalinkError(field: "metalink", reason: "nests too deep or has too many elements")
                return parser.abortParsing()
            }
            let element = Element(name: name, namespace: namespaceURI, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else if root == nil { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.rawText += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            stack.last?.rawText += String(decoding: block, as: UTF8.self)
        }
    }
}
