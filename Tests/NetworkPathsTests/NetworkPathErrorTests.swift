import NetworkPaths
import Testing

@Suite("Rejected --network values")
struct NetworkPathErrorTests {
    /// A bad value and the words its error must contain: the path's name, the key at fault, the problem.
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let mentions: [String]
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(text: "a:type=wifi", mentions: ["\"a\"", "interface=IFNAME or address=IP"]),
        Case(text: "a:", mentions: ["\"a\"", "interface=IFNAME or address=IP"]),
        Case(text: "a:interface=eth0,address=10.0.0.1", mentions: ["\"a\"", "exclusive"]),
        Case(text: "a:interface=eth0,speed=fast", mentions: ["\"a\"", "speed", "unknown key"]),
        Case(text: "a:interface=eth0,type=satellite", mentions: ["\"a\"", "type", "satellite"]),
        Case(text: "a:address=10.0.0.256", mentions: ["\"a\"", "address", "10.0.0.256"]),
        Case(text: "a:address=eth0", mentions: ["\"a\"", "address", "not an IPv4 or IPv6"]),
        Case(text: "a:interface=eth0,proxy=ftp://proxy:21", mentions: ["\"a\"", "proxy", "must start with"]),
        Case(text: "a:interface=eth0,proxy=proxy.internal:3128", mentions: ["\"a\"", "proxy", "must start with"]),
        Case(text: "a:interface=eth0,proxy=http://", mentions: ["\"a\"", "proxy", "no host"]),
        Case(text: "a:interface=eth0,proxy=http://user@:3128", mentions: ["\"a\"", "proxy", "no host"]),
        Case(text: "a:interface=eth0,preference=1001", mentions: ["\"a\"", "preference", "0 to 1000"]),
        Case(text: "a:interface=eth0,preference=-1", mentions: ["\"a\"", "preference"]),
        Case(text: "a:interface=eth0,preference=high", mentions: ["\"a\"", "preference"]),
        Case(text: "a:interface=eth0,expensive=yes", mentions: ["\"a\"", "expensive", "true or false"]),
        Case(text: "a:interface=eth0,type=cellular,expensive=false", mentions: ["\"a\"", "expensive", "cellular"]),
        Case(text: "a:interface=eth0,interface=eth1", mentions: ["\"a\"", "interface", "twice"]),
        Case(text: "a:interface=", mentions: ["\"a\"", "interface", "needs a value"]),
        Case(text: "a:interface=wwan0-with-a-long-name", mentions: ["\"a\"", "interface", "1-15"]),
        Case(text: "a:interface=eth/0", mentions: ["\"a\"", "interface"]),
        Case(text: "bad name:interface=eth0", mentions: ["\"bad name\"", "name"]),
        Case(text: ":interface=eth0", mentions: ["\"\"", "name"]),
        Case(text: "fibre", mentions: ["\"fibre\"", "NAME:key=value"]),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: cases)
    func badValuesAreRejected(_ bad: Case) {
        let error = #expect(throws: NetworkPathError.self) { try NetworkPath.parse(bad.text, position: 0) }
        for word in bad.mentions {
            #expect(error?.description.contains(word) == true, "\(error?.description ?? "no error") lacks \(word)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aNameConfiguredTwiceIsRejected() {
        let error = #expect(throws: NetworkPathError.self) {
            try NetworkPath.parseList("fibre:interface=eth0;lte:interface=wwan0;fibre:interface=eth1")
        }
        #expect(error?.description.contains("\"fibre\"") == true)
        #expect(error?.description.contains("twice") == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func aListNamesTheFaultyPath() {
        let error = #expect(throws: NetworkPathError.self) {
            try NetworkPath.parseList("fibre:interface=eth0;lte:interface=wwan0,kind=cellular")
        }
        #expect(error?.description.contains("\"lte\"") == true)
        #expect(error?.description.contains("kind") == true)
    }
}
