/// A session's storages as URLSession has them (`httpCookieStorage`, `urlCache`, `urlCredentialStorage`),
/// for every session of the service: one value the task service, the job factory and the session service
/// share.
struct SessionStorages: Sendable {
    let cookies: CookieStorages
    let urlCaches: URLCaches
    let credentials: CredentialStorages
}
