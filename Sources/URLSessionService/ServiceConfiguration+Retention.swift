import TransferStore

extension ServiceConfiguration {
    /// How long finished work is kept, and how often the housekeeping pass looks: whole seconds, so
    /// tests can shorten them to a few.
    mutating func configureRetention(_ overrides: Overrides, _ env: Environment) throws {
        let year = 366 * 86_400
        if let seconds = try retention(overrides.eventRetention, env, "URLSESSIOND_EVENT_RETENTION", max: year) {
            retention.deliveredEvents = seconds
        }
        if let seconds = try retention(overrides.taskRetention, env, "URLSESSIOND_TASK_RETENTION", max: 10 * year) {
            retention.finishedTasks = seconds
        }
        if let seconds = try retention(overrides.sessionRetention, env, "URLSESSIOND_SESSION_RETENTION", max: 10 * year) {
            retention.invalidatedSessions = seconds
        }
        if let seconds = try retention(overrides.housekeepingInterval, env, "URLSESSIOND_HOUSEKEEPING_INTERVAL", max: 86_400) {
            housekeepingInterval = seconds
        }
    }

    private func retention(_ flag: Int?, _ env: Environment, _ setting: String, max: Int) throws -> Double? {
        guard let value = try flag ?? env.integer(setting) else { return nil }
        guard (1...max).contains(value) else { throw ConfigurationError(setting: setting, detail: "must be seconds in 1...\(max)") }
        return Double(value)
    }
}
