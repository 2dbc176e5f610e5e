import Foundation
import JSONCodec
import TransferModels

/// Foundation's `JSONDecoder`/`JSONEncoder` against the service's own codecs on the service's hot paths:
/// decoding task-create bodies (`StrictJSONDecoder`, as `HTTPRequest.decodeJSON` does) and encoding
/// delegate events and the task object (`WireJSON.encode`).
///
/// Each operation is timed in `runs` rounds that alternate the codecs, so that drift in the machine's load
/// hits both alike; a round repeats the operation for about `roundMilliseconds`. The table gives the median
/// round's ns/op, and the fastest round's in parentheses.
///
/// Usage: `swift run -c release JSONBenchmark [runs] [roundMilliseconds]` (defaults: 15, 40).
@main
enum JSONBenchmark {
    struct Operation {
        var name: String
        var bytes: Int
        var handWritten: () throws -> Int
        var foundation: () throws -> Int
    }

    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let runs = arguments.first ?? 15
        let roundNanoseconds = Double(arguments.dropFirst().first ?? 40) * 1_000_000

        let operations = try decodeOperations() + encodeOperations()
        var samples = Array(repeating: (handWritten: [Double](), foundation: [Double]()), count: operations.count)
        let iterations = try operations.map {
            (try calibrate($0.handWritten, roundNanoseconds), try calibrate($0.foundation, roundNanoseconds))
        }
        for _ in 0..<runs {
            for (index, operation) in operations.enumerated() {
                samples[index].handWritten.append(try nanosecondsPerOperation(operation.handWritten, iterations[index].0))
                samples[index].foundation.append(try nanosecondsPerOperation(operation.foundation, iterations[index].1))
            }
        }

        print("| Operation | Bytes | Hand-written ns/op | Foundation ns/op | Foundation ÷ hand-written |")
        print("|---|---:|---:|---:|---:|")
        for (operation, sample) in zip(operations, samples) {
            let (own, foundation) = (median(sample.handWritten), median(sample.foundation))
            print(
                "| \(operation.name) | \(operation.bytes) | \(format(own)) (\(format(sample.handWritten.min() ?? 0)))"
                    + " | \(format(foundation)) (\(format(sample.foundation.min() ?? 0)))"
                    + " | \(String(format: "%.1f×", foundation / own)) |")
        }
        print("\(runs) rounds of ~\(Int(roundNanoseconds / 1_000_000)) ms per codec and operation; median (fastest).")
    }

    // MARK: Operations

    /// `StrictJSONDecoder` from the body's bytes, as `HTTPRequest.decodeJSON` does, against `JSONDecoder` from
    /// `Data` (made once, outside the timing) with ISO 8601 dates, the nearest it has to RFC 3339. Foundation
    /// ignores unknown fields and reports no field paths: it does less, and the table shows what that costs.
    static func decodeOperations() throws -> [Operation] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var operations: [Operation] = []
        for (name, body) in [("small", Payloads.smallTaskBody), ("full", Payloads.fullTaskBody)] {
            let data = Data(body)
            let own = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: body)
            guard try decoder.decode(TaskCreateRequest.self, from: data) == own else {
                throw BenchmarkError("the two decoders disagree on the \(name) task body")
            }
            operations.append(
                Operation(
                    name: "decode TaskCreateRequest (\(name) body)", bytes: body.count,
                    handWritten: { try StrictJSONDecoder().decode(TaskCreateRequest.self, from: body).resume == true ? 1 : 0 },
                    foundation: { try decoder.decode(TaskCreateRequest.self, from: data).resume == true ? 1 : 0 }))
        }
        let body = Payloads.fullTaskBody
        let data = Data(body)
        operations.append(
            Operation(
                name: "parse only (full body): JSONParser vs JSONSerialization", bytes: body.count,
                handWritten: { try JSONParser.parse(body, duplicateKeys: .reject).objectValue?.count ?? 0 },
                foundation: { (try JSONSerialization.jsonObject(with: data) as? NSDictionary)?.count ?? 0 }))
        return operations
    }

    /// `WireJSON.encode` against `JSONEncoder` configured as `WireJSON` documents (and as the byte-identity
    /// tests check): sorted keys, unescaped slashes, RFC 3339 dates with milliseconds. The outputs are
    /// checked to be identical before timing.
    static func encodeOperations() throws -> [Operation] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(WireJSON.formatTimestamp(date))
        }
        func operation(_ name: String, _ value: some Encodable) throws -> Operation {
            let own = try WireJSON.encode(value)
            guard Array(try encoder.encode(value)) == own else {
                throw BenchmarkError("WireJSON.encode and JSONEncoder differ on \(name)")
            }
            return Operation(
                name: "encode \(name)", bytes: own.count,
                handWritten: { try WireJSON.encode(value).count },
                foundation: { try encoder.encode(value).count })
        }
        return [
            try operation("ReceiveDataEventData (didReceiveData)", Payloads.receiveData),
            try operation("ResponseEventData (didReceiveResponse)", Payloads.responseEvent),
            try operation("metrics event (didFinishCollectingMetrics)", Payloads.metricsEvent),
            try operation("TransferTask (task object)", Payloads.task),
        ]
    }

    // MARK: Timing

    /// The iteration count that makes one round last about `nanoseconds`.
    static func calibrate(_ body: () throws -> Int, _ nanoseconds: Double) throws -> Int {
        var iterations = 1
        while true {
            let perOperation = try nanosecondsPerOperation(body, iterations)
            if perOperation * Double(iterations) >= nanoseconds / 4 {
                return max(1, Int(nanoseconds / perOperation))
            }
            iterations *= 4
        }
    }

    static func nanosecondsPerOperation(_ body: () throws -> Int, _ iterations: Int) throws -> Double {
        var sink = 0
        let start = ContinuousClock.now
        for _ in 0..<iterations { sink &+= try body() }
        let elapsed = ContinuousClock.now - start
        keep(sink)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
    }

    /// Consumes results so the optimizer cannot drop the work that produced them.
    @inline(never)
    static func keep(_ value: Int) {
        if value == 0x5EED_5EED { print("") }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ nanoseconds: Double) -> String {
        nanoseconds >= 100 ? String(Int(nanoseconds.rounded())) : String(format: "%.1f", nanoseconds)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
