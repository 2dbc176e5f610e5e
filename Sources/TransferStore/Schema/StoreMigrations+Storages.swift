extension StoreMigrations {
    /// A session's persistent cookies (`CookieRecord`): the tenant's shared storage or a session's private
    /// one (`storage`).
    static let cookies = StoreMigration(
        "v7-cookies",
        [
            .shared(
                """
                CREATE TABLE cookie (storage TEXT NOT NULL, sessionId TEXT REFERENCES session(id) ON DELETE CASCADE,
                  name TEXT NOT NULL, domain TEXT NOT NULL, path TEXT NOT NULL, value TEXT NOT NULL,
                  isHostOnly \(.boolean) NOT NULL, expiresAt \(.date) NOT NULL, isSecure \(.boolean) NOT NULL,
                  isHTTPOnly \(.boolean) NOT NULL, sameSite TEXT, createdAt \(.date) NOT NULL, lastAccessAt \(.date) NOT NULL,
                  PRIMARY KEY (storage, name, domain, path))
                """),
            .shared("CREATE INDEX cookie_session ON cookie(sessionId)"),
        ])

    /// A URL cache's entries (`CacheEntryRecord`), with the small bodies kept in the store (`cache_body`).
    static let urlCache = StoreMigration(
        "v8-url-cache",
        [
            .shared(
                """
                CREATE TABLE cache_entry (storage TEXT NOT NULL, sessionId TEXT REFERENCES session(id) ON DELETE CASCADE,
                  url TEXT NOT NULL, responseURL TEXT NOT NULL, statusCode \(.integer) NOT NULL, headers TEXT NOT NULL,
                  varyValues TEXT NOT NULL, requestTime \(.date) NOT NULL, responseTime \(.date) NOT NULL,
                  storedAt \(.date) NOT NULL, userInfo TEXT, bodyFile TEXT, bodySize \(.integer) NOT NULL,
                  lastAccessAt \(.date) NOT NULL, PRIMARY KEY (storage, url))
                """),
            .shared("CREATE INDEX cache_entry_session ON cache_entry(sessionId)"),
            .shared(
                """
                CREATE TABLE cache_body (storage TEXT NOT NULL, url TEXT NOT NULL, body \(.blob) NOT NULL,
                  PRIMARY KEY (storage, url),
                  FOREIGN KEY (storage, url) REFERENCES cache_entry(storage, url) ON DELETE CASCADE)
                """),
        ])

    /// `permanent` credentials (`CredentialRecord`), their secrets sealed. `user` is quoted: a reserved
    /// word on PostgreSQL.
    static let credentials = StoreMigration(
        "v9-credentials",
        [
            .shared(
                """
                CREATE TABLE credential (id TEXT PRIMARY KEY, storage TEXT NOT NULL, tenant TEXT NOT NULL,
                  sessionId TEXT REFERENCES session(id) ON DELETE CASCADE, host TEXT NOT NULL, port \(.integer) NOT NULL,
                  protocol TEXT NOT NULL, realm TEXT, authenticationMethod TEXT NOT NULL, isProxy \(.boolean) NOT NULL,
                  kind TEXT NOT NULL, "user" TEXT NOT NULL, sealedPassword \(.blob) NOT NULL, isDefault \(.boolean) NOT NULL,
                  createdAt \(.date) NOT NULL)
                """),
            .shared("CREATE INDEX credential_storage ON credential(storage)"),
            .shared("CREATE INDEX credential_session ON credential(sessionId)"),
        ])

    /// The owner of an unanswered idempotency claim, added after the first release: rows from before it
    /// have none, and are taken over like those of a process that died.
    static let idempotencyClaimOwner = StoreMigration(
        "v10-idempotency-claim-owner", [.shared("ALTER TABLE idempotencyKey ADD COLUMN claim TEXT")])
}
