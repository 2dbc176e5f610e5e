/// The store's statements number their placeholders for PostgreSQL: each `?` outside a string literal, a
/// quoted name or a comment becomes `$1`, `$2`, … in order.
enum PostgresPlaceholders {
    /// `suffix` gives what follows the placeholder of each index (from 0): a cast, or nothing.
    static func numbered(_ sql: String, suffix: (Int) -> String = { _ in "" }) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?  // inside '…' or "…"
        var inComment = false
        var previous: Character?
        for character in sql {
            if inComment {
                if character == "\n" { inComment = false }
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-" && previous == "-" {
                inComment = true
            } else if character == "?" {
                number += 1
                result += "$\(number)" + suffix(number - 1)
                previous = character
                continue
            }
            result.append(character)
            previous = character
        }
        return result
    }
}
