PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1-sessions-tasks-events-blobs');
INSERT INTO grdb_migrations VALUES('v2-task-transfer-state');
INSERT INTO grdb_migrations VALUES('v3-task-body');
INSERT INTO grdb_migrations VALUES('v4-task-suspend-count');
INSERT INTO grdb_migrations VALUES('v5-task-partial-file');
INSERT INTO grdb_migrations VALUES('v3-webhook-delivery');
INSERT INTO grdb_migrations VALUES('v6-session-delegate-held');
INSERT INTO grdb_migrations VALUES('v7-cookies');
INSERT INTO grdb_migrations VALUES('v8-url-cache');
INSERT INTO grdb_migrations VALUES('v9-credentials');
INSERT INTO grdb_migrations VALUES('v10-idempotency-claim-owner');
INSERT INTO grdb_migrations VALUES('v10-tenant-usage');
INSERT INTO grdb_migrations VALUES('v10-retention');
INSERT INTO grdb_migrations VALUES('v11-task-segments');
INSERT INTO grdb_migrations VALUES('v12-task-websocket');
INSERT INTO grdb_migrations VALUES('v13-task-stream');
INSERT INTO grdb_migrations VALUES('v14-cluster');
INSERT INTO grdb_migrations VALUES('v15-task-file-object');
INSERT INTO grdb_migrations VALUES('v16-blob-object');
INSERT INTO grdb_migrations VALUES('v17-session-delegate-health');
INSERT INTO grdb_migrations VALUES('v18-tenant-usage-shards');
INSERT INTO grdb_migrations VALUES('v19-task-unclaimed-by-tenant');
CREATE TABLE IF NOT EXISTS "session" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE, "tenant" TEXT NOT NULL, "kind" TEXT NOT NULL, "identifier" TEXT, "isShared" BOOLEAN NOT NULL DEFAULT 0, "configuration" TEXT NOT NULL, "delegate" TEXT, "delegateSecret" BLOB, "sessionDescription" TEXT, "state" TEXT NOT NULL, "lastSequence" INTEGER NOT NULL DEFAULT 0, "lastTaskIdentifier" INTEGER NOT NULL DEFAULT 0, "createdAt" DATETIME NOT NULL, "invalidatedAt" DATETIME, "delegateCursor" INTEGER NOT NULL DEFAULT 0, "delegateRetryAt" DATETIME, "delegateDisabledAt" DATETIME, "delegateHeldAt" DATETIME, "delegateDeliveredAt" DATETIME, "delegateFailures" INTEGER NOT NULL DEFAULT 0, "delegateFailedAt" DATETIME, "delegateFailureReason" TEXT);
INSERT INTO session VALUES(1,'ses_0355gpR1l5lQj9TMxhn01B','default','default',NULL,0,'{"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"connectionProxyDictionary":null,"httpAdditionalHeaders":{},"httpCookieAcceptPolicy":"always","httpCookieStorage":"shared","httpMaximumConnectionsPerHost":6,"httpShouldSetCookies":true,"httpShouldUsePipelining":false,"identifier":null,"isDiscretionary":false,"kind":"default","networkServiceType":"default","requestCachePolicy":"useProtocolCachePolicy","segments":null,"serverTrust":null,"sessionSendsLaunchEvents":true,"shouldUseExtendedBackgroundIdleMode":false,"timeoutIntervalForRequest":60,"timeoutIntervalForResource":604800,"tlsMaximumSupportedProtocolVersion":"TLSv13","tlsMinimumSupportedProtocolVersion":"TLSv12","urlCache":{"storage":"shared"},"urlCredentialStorage":"shared","waitsForConnectivity":false}',NULL,NULL,'fixture','valid',4,2,'2026-11-28 23:46:29.119',NULL,0,NULL,NULL,NULL,NULL,0,NULL,NULL);
CREATE TABLE IF NOT EXISTS "task" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE, "sessionId" TEXT NOT NULL REFERENCES "session"("id") ON DELETE CASCADE, "tenant" TEXT NOT NULL, "taskIdentifier" INTEGER NOT NULL, "kind" TEXT NOT NULL, "state" TEXT NOT NULL, "priority" DOUBLE NOT NULL, "taskDescription" TEXT, "earliestBeginDate" DATETIME, "originalRequest" TEXT NOT NULL, "currentRequest" TEXT, "response" TEXT, "countOfBytesSent" INTEGER NOT NULL DEFAULT 0, "countOfBytesExpectedToSend" INTEGER NOT NULL DEFAULT 0, "countOfBytesReceived" INTEGER NOT NULL DEFAULT 0, "countOfBytesExpectedToReceive" INTEGER NOT NULL DEFAULT -1, "countOfBytesClientExpectsToSend" INTEGER NOT NULL DEFAULT -1, "countOfBytesClientExpectsToReceive" INTEGER NOT NULL DEFAULT -1, "error" TEXT, "uploadSource" TEXT, "completion" TEXT, "expectedDigest" TEXT, "filePath" TEXT, "fileExpiresAt" DATETIME, "createdAt" DATETIME NOT NULL, "startedAt" DATETIME, "completedAt" DATETIME, "resumeData" TEXT, "completionSecret" BLOB, "metrics" TEXT, "suspendCount" INTEGER NOT NULL DEFAULT 1, "partialPath" TEXT, "storedBytes" INTEGER NOT NULL DEFAULT 0, "segments" TEXT, "webSocket" TEXT, "stream" TEXT, "node" TEXT, "fileObject" TEXT, UNIQUE ("sessionId", "taskIdentifier"));
INSERT INTO task VALUES(1,'tsk_0355gpUPXIZr5nyS42k2cL','ses_0355gpR1l5lQj9TMxhn01B','default',1,'data','completed',0.5,NULL,NULL,'{"allHTTPHeaderFields":{},"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,"timeoutInterval":60,"url":"http://127.0.0.1:41093/"}','{"allHTTPHeaderFields":{},"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,"timeoutInterval":60,"url":"http://127.0.0.1:41093/"}',NULL,0,0,0,-1,-1,-1,'{"code":-1004,"domain":"NSURLErrorDomain","localizedDescription":"Could not connect to the server.","name":"cannotConnectToHost","underlying":{"code":7,"domain":"libcurl","message":"127.0.0.1 is in 127.0.0.0/8 (loopback; URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 allows it)"},"userInfo":{"NSErrorFailingURLStringKey":"http://127.0.0.1:41093/","reason":"egressPolicy"}}',NULL,NULL,NULL,NULL,NULL,'2026-11-28 23:46:31.271','2026-11-28 23:46:31.271','2026-11-28 23:46:31.279',NULL,NULL,'{"redirectCount":0,"taskInterval":{"duration":0.002591729164123535,"start":"2026-11-28T23:46:31.276Z"},"transactionMetrics":[{"connectEndDate":null,"connectStartDate":null,"countOfRequestBodyBytesBeforeEncoding":0,"countOfRequestBodyBytesSent":0,"countOfRequestHeaderBytesSent":0,"countOfResponseBodyBytesAfterDecoding":0,"countOfResponseBodyBytesReceived":0,"countOfResponseHeaderBytesReceived":0,"domainLookupEndDate":"2026-11-28T23:46:31.277Z","domainLookupStartDate":"2026-11-28T23:46:31.277Z","fetchStartDate":"2026-11-28T23:46:31.277Z","isCellular":false,"isConstrained":false,"isExpensive":false,"isMultipath":false,"isProxyConnection":false,"isReusedConnection":true,"localAddress":"","localPort":null,"negotiatedTLSCipherSuite":null,"negotiatedTLSProtocolVersion":null,"networkInterface":null,"networkPath":"default","networkProtocolName":null,"remoteAddress":"","remotePort":null,"request":{"allHTTPHeaderFields":{},"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,"timeoutInterval":60,"url":"http://127.0.0.1:41093/"},"requestEndDate":null,"requestStartDate":null,"resourceFetchType":"networkLoad","response":null,"responseEndDate":"2026-11-28T23:46:31.278Z","responseStartDate":null,"secureConnectionEndDate":null,"secureConnectionStartDate":null}]}',0,NULL,0,NULL,NULL,NULL,NULL,NULL);
INSERT INTO task VALUES(2,'tsk_0355gpURkWA4hcVcqnbLeR','ses_0355gpR1l5lQj9TMxhn01B','default',2,'data','suspended',0.5,NULL,NULL,'{"allHTTPHeaderFields":{},"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,"timeoutInterval":60,"url":"http://example.invalid/"}',NULL,NULL,0,0,0,-1,-1,-1,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-28 23:46:31.294',NULL,NULL,NULL,NULL,NULL,1,NULL,0,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE IF NOT EXISTS "event" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE, "sessionId" TEXT NOT NULL REFERENCES "session"("id") ON DELETE CASCADE, "sequence" INTEGER NOT NULL, "taskId" TEXT, "type" TEXT NOT NULL, "timestamp" DATETIME NOT NULL, "data" TEXT NOT NULL, "deliveredAt" DATETIME, "deliveryAttempts" INTEGER NOT NULL DEFAULT 0, "nextAttemptAt" DATETIME, "deliveryFailedAt" DATETIME, UNIQUE ("sessionId", "sequence"));
INSERT INTO event VALUES(1,'evt_0355gpUPhKDzrPazrCzkWM','ses_0355gpR1l5lQj9TMxhn01B',1,'tsk_0355gpUPXIZr5nyS42k2cL','task.didCreateTask','2026-11-28 23:46:31.273','{"task":{"id":"tsk_0355gpUPXIZr5nyS42k2cL","kind":"data","state":"suspended","taskDescription":null,"taskIdentifier":1}}',NULL,0,NULL,NULL);
INSERT INTO event VALUES(2,'evt_0355gpUQmlDnMx51cEBgj5','ses_0355gpR1l5lQj9TMxhn01B',2,'tsk_0355gpUPXIZr5nyS42k2cL','task.didFinishCollectingMetrics','2026-11-28 23:46:31.283','{"metrics":{"redirectCount":0,"taskInterval":{"duration":0.002591729164123535,"start":"2026-11-28T23:46:31.276Z"},"transactionMetrics":[{"connectEndDate":null,"connectStartDate":null,"countOfRequestBodyBytesBeforeEncoding":0,"countOfRequestBodyBytesSent":0,"countOfRequestHeaderBytesSent":0,"countOfResponseBodyBytesAfterDecoding":0,"countOfResponseBodyBytesReceived":0,"countOfResponseHeaderBytesReceived":0,"domainLookupEndDate":"2026-11-28T23:46:31.277Z","domainLookupStartDate":"2026-11-28T23:46:31.277Z","fetchStartDate":"2026-11-28T23:46:31.277Z","isCellular":false,"isConstrained":false,"isExpensive":false,"isMultipath":false,"isProxyConnection":false,"isReusedConnection":true,"localAddress":"","localPort":null,"negotiatedTLSCipherSuite":null,"negotiatedTLSProtocolVersion":null,"networkInterface":null,"networkPath":"default","networkProtocolName":null,"remoteAddress":"","remotePort":null,"request":{"allHTTPHeaderFields":{},"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,"cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,"timeoutInterval":60,"url":"http://127.0.0.1:41093/"},"requestEndDate":null,"requestStartDate":null,"resourceFetchType":"networkLoad","response":null,"responseEndDate":"2026-11-28T23:46:31.278Z","responseStartDate":null,"secureConnectionEndDate":null,"secureConnectionStartDate":null}]},"task":{"id":"tsk_0355gpUPXIZr5nyS42k2cL","kind":"data","state":"completed","taskDescription":null,"taskIdentifier":1}}',NULL,0,NULL,NULL);
INSERT INTO event VALUES(3,'evt_0355gpUQmVOnQewYjEsoxt','ses_0355gpR1l5lQj9TMxhn01B',3,'tsk_0355gpUPXIZr5nyS42k2cL','task.didCompleteWithError','2026-11-28 23:46:31.283','{"error":{"code":-1004,"domain":"NSURLErrorDomain","localizedDescription":"Could not connect to the server.","name":"cannotConnectToHost","underlying":{"code":7,"domain":"libcurl","message":"127.0.0.1 is in 127.0.0.0/8 (loopback; URLSESSIOND_EGRESS_ALLOW=127.0.0.0/8 allows it)"},"userInfo":{"NSErrorFailingURLStringKey":"http://127.0.0.1:41093/","reason":"egressPolicy"}},"task":{"id":"tsk_0355gpUPXIZr5nyS42k2cL","kind":"data","state":"completed","taskDescription":null,"taskIdentifier":1}}',NULL,0,NULL,NULL);
INSERT INTO event VALUES(4,'evt_0355gpURk3s9dwsVbofzKr','ses_0355gpR1l5lQj9TMxhn01B',4,'tsk_0355gpURkWA4hcVcqnbLeR','task.didCreateTask','2026-11-28 23:46:31.294','{"task":{"id":"tsk_0355gpURkWA4hcVcqnbLeR","kind":"data","state":"suspended","taskDescription":null,"taskIdentifier":2}}',NULL,0,NULL,NULL);
CREATE TABLE IF NOT EXISTS "blob" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE, "tenant" TEXT NOT NULL, "size" INTEGER NOT NULL, "digest" TEXT NOT NULL, "createdAt" DATETIME NOT NULL, "object" TEXT);
INSERT INTO blob VALUES(1,'blb_0355gpUT3TQLfksPnE7toH','default',10,'sha-256=:6Zev0Y5fa+AE/Bk67SyQKR5oqyx1maYlOMk1t/ymqw8=:','2026-11-28 23:46:31.309',NULL);
CREATE TABLE IF NOT EXISTS "idempotencyKey" ("tenant" TEXT NOT NULL, "key" TEXT NOT NULL, "fingerprint" TEXT NOT NULL, "status" INTEGER, "contentType" TEXT, "location" TEXT, "body" BLOB, "createdAt" DATETIME NOT NULL, "claim" TEXT, PRIMARY KEY ("tenant", "key"));
CREATE TABLE IF NOT EXISTS "taskUpload" ("taskId" TEXT PRIMARY KEY NOT NULL REFERENCES "task"("id") ON DELETE CASCADE, "data" BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS "taskBody" ("taskId" TEXT PRIMARY KEY NOT NULL REFERENCES "task"("id") ON DELETE CASCADE, "data" BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS "cookie" ("storage" TEXT NOT NULL, "sessionId" TEXT REFERENCES "session"("id") ON DELETE CASCADE, "name" TEXT NOT NULL, "domain" TEXT NOT NULL, "path" TEXT NOT NULL, "value" TEXT NOT NULL, "isHostOnly" BOOLEAN NOT NULL, "expiresAt" DATETIME NOT NULL, "isSecure" BOOLEAN NOT NULL, "isHTTPOnly" BOOLEAN NOT NULL, "sameSite" TEXT, "createdAt" DATETIME NOT NULL, "lastAccessAt" DATETIME NOT NULL, PRIMARY KEY ("storage", "name", "domain", "path"));
CREATE TABLE IF NOT EXISTS "cache_entry" ("storage" TEXT NOT NULL, "sessionId" TEXT REFERENCES "session"("id") ON DELETE CASCADE, "url" TEXT NOT NULL, "responseURL" TEXT NOT NULL, "statusCode" INTEGER NOT NULL, "headers" TEXT NOT NULL, "varyValues" TEXT NOT NULL, "requestTime" DATETIME NOT NULL, "responseTime" DATETIME NOT NULL, "storedAt" DATETIME NOT NULL, "userInfo" TEXT, "bodyFile" TEXT, "bodySize" INTEGER NOT NULL, "lastAccessAt" DATETIME NOT NULL, PRIMARY KEY ("storage", "url"));
CREATE TABLE IF NOT EXISTS "cache_body" ("storage" TEXT NOT NULL, "url" TEXT NOT NULL, "body" BLOB NOT NULL, PRIMARY KEY ("storage", "url"), FOREIGN KEY ("storage", "url") REFERENCES "cache_entry"("storage", "url") ON DELETE CASCADE);
CREATE TABLE IF NOT EXISTS "credential" ("id" TEXT PRIMARY KEY, "storage" TEXT NOT NULL, "tenant" TEXT NOT NULL, "sessionId" TEXT REFERENCES "session"("id") ON DELETE CASCADE, "host" TEXT NOT NULL, "port" INTEGER NOT NULL, "protocol" TEXT NOT NULL, "realm" TEXT, "authenticationMethod" TEXT NOT NULL, "isProxy" BOOLEAN NOT NULL, "kind" TEXT NOT NULL, "user" TEXT NOT NULL, "sealedPassword" BLOB NOT NULL, "isDefault" BOOLEAN NOT NULL, "createdAt" DATETIME NOT NULL);
CREATE TABLE IF NOT EXISTS "tenant_usage" ("tenant" TEXT PRIMARY KEY NOT NULL, "sessions" INTEGER NOT NULL DEFAULT 0, "tasks" INTEGER NOT NULL DEFAULT 0, "blobBytes" INTEGER NOT NULL DEFAULT 0, "blobCount" INTEGER NOT NULL DEFAULT 0, "storedBytes" INTEGER NOT NULL DEFAULT 0);
INSERT INTO tenant_usage VALUES('default',1,1,10,1,0);
CREATE TABLE IF NOT EXISTS "node" ("id" TEXT PRIMARY KEY NOT NULL, "startedAt" DATETIME NOT NULL, "heartbeatAt" DATETIME NOT NULL, "stoppedAt" DATETIME, "activeTasks" INTEGER NOT NULL DEFAULT 0, "maximumTransfers" INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS "lease" ("name" TEXT PRIMARY KEY NOT NULL, "node" TEXT NOT NULL, "expiresAt" DATETIME NOT NULL);
CREATE INDEX "session_tenant" ON "session"("tenant", "rowid");
CREATE UNIQUE INDEX session_background_identifier ON session(tenant, identifier)
WHERE identifier IS NOT NULL AND state <> 'invalidated';
CREATE UNIQUE INDEX session_shared ON session(tenant) WHERE isShared;
CREATE INDEX "task_session" ON "task"("sessionId", "rowid");
CREATE INDEX "task_state" ON "task"("state");
CREATE INDEX "event_task" ON "event"("taskId", "sequence");
CREATE INDEX "blob_tenant" ON "blob"("tenant", "rowid");
CREATE INDEX "idempotencyKey_createdAt" ON "idempotencyKey"("createdAt");
CREATE INDEX task_fileExpiresAt ON task(fileExpiresAt) WHERE fileExpiresAt IS NOT NULL;
CREATE INDEX "task_session_state" ON "task"("sessionId", "state", "rowid");
CREATE INDEX session_delegate_backlog ON session(delegateRetryAt)
WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor;
CREATE INDEX event_completion_pending ON event(sessionId, sequence)
WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL;
CREATE INDEX "cookie_session" ON "cookie"("sessionId");
CREATE INDEX "cache_entry_session" ON "cache_entry"("sessionId");
CREATE INDEX "credential_storage" ON "credential"("storage");
CREATE INDEX "credential_session" ON "credential"("sessionId");
CREATE TRIGGER tenant_usage_session_insert AFTER INSERT ON session WHEN (NOT NEW.isShared AND NEW.state <> 'invalidated') BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT NEW.tenant AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET sessions = sessions + 1 WHERE tenant = NEW.tenant;
END;
CREATE TRIGGER tenant_usage_session_update AFTER UPDATE OF state, isShared ON session
WHEN (NOT OLD.isShared AND OLD.state <> 'invalidated') <> (NOT NEW.isShared AND NEW.state <> 'invalidated') BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT NEW.tenant AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET sessions = sessions + (NOT NEW.isShared AND NEW.state <> 'invalidated') - (NOT OLD.isShared AND OLD.state <> 'invalidated')
  WHERE tenant = NEW.tenant;
END;
CREATE TRIGGER tenant_usage_session_delete BEFORE DELETE ON session BEGIN
  UPDATE tenant_usage SET sessions = sessions - (NOT OLD.isShared AND OLD.state <> 'invalidated'),
    storedBytes = storedBytes - (SELECT COALESCE(SUM(bodySize), 0) FROM cache_entry WHERE sessionId = OLD.id)
  WHERE tenant = OLD.tenant;
END;
CREATE TRIGGER tenant_usage_task_insert AFTER INSERT ON task BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT NEW.tenant AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET tasks = tasks + (NEW.state <> 'completed'), storedBytes = storedBytes + (CASE WHEN (NEW.filePath IS NOT NULL OR NEW.fileExpiresAt IS NOT NULL) THEN NEW.storedBytes ELSE 0 END)
  WHERE tenant = NEW.tenant;
END;
CREATE TRIGGER tenant_usage_task_update AFTER UPDATE OF state, filePath, fileExpiresAt, storedBytes ON task
WHEN (OLD.state <> 'completed') <> (NEW.state <> 'completed') OR (CASE WHEN (OLD.filePath IS NOT NULL OR OLD.fileExpiresAt IS NOT NULL) THEN OLD.storedBytes ELSE 0 END) <> (CASE WHEN (NEW.filePath IS NOT NULL OR NEW.fileExpiresAt IS NOT NULL) THEN NEW.storedBytes ELSE 0 END) BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT NEW.tenant AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET tasks = tasks + (NEW.state <> 'completed') - (OLD.state <> 'completed'),
    storedBytes = storedBytes + (CASE WHEN (NEW.filePath IS NOT NULL OR NEW.fileExpiresAt IS NOT NULL) THEN NEW.storedBytes ELSE 0 END) - (CASE WHEN (OLD.filePath IS NOT NULL OR OLD.fileExpiresAt IS NOT NULL) THEN OLD.storedBytes ELSE 0 END)
  WHERE tenant = NEW.tenant;
END;
CREATE TRIGGER tenant_usage_task_delete AFTER DELETE ON task BEGIN
  UPDATE tenant_usage SET tasks = tasks - (OLD.state <> 'completed'), storedBytes = storedBytes - (CASE WHEN (OLD.filePath IS NOT NULL OR OLD.fileExpiresAt IS NOT NULL) THEN OLD.storedBytes ELSE 0 END)
  WHERE tenant = OLD.tenant;
END;
CREATE TRIGGER tenant_usage_blob_insert AFTER INSERT ON blob BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT NEW.tenant AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET blobCount = blobCount + 1, blobBytes = blobBytes + NEW.size WHERE tenant = NEW.tenant;
END;
CREATE TRIGGER tenant_usage_blob_delete AFTER DELETE ON blob BEGIN
  UPDATE tenant_usage SET blobCount = blobCount - 1, blobBytes = blobBytes - OLD.size WHERE tenant = OLD.tenant;
END;
CREATE TRIGGER tenant_usage_cache_insert AFTER INSERT ON cache_entry BEGIN
  INSERT OR IGNORE INTO tenant_usage (tenant) SELECT tenant FROM (SELECT (CASE WHEN NEW.sessionId IS NULL THEN substr(NEW.storage, 8) ELSE (SELECT tenant FROM session WHERE id = NEW.sessionId) END) AS tenant) WHERE tenant IS NOT NULL;
  UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize WHERE tenant = (CASE WHEN NEW.sessionId IS NULL THEN substr(NEW.storage, 8) ELSE (SELECT tenant FROM session WHERE id = NEW.sessionId) END);
END;
CREATE TRIGGER tenant_usage_cache_update AFTER UPDATE OF bodySize ON cache_entry
WHEN OLD.bodySize <> NEW.bodySize BEGIN
  UPDATE tenant_usage SET storedBytes = storedBytes + NEW.bodySize - OLD.bodySize WHERE tenant = (CASE WHEN NEW.sessionId IS NULL THEN substr(NEW.storage, 8) ELSE (SELECT tenant FROM session WHERE id = NEW.sessionId) END);
END;
CREATE TRIGGER tenant_usage_cache_delete AFTER DELETE ON cache_entry BEGIN
  UPDATE tenant_usage SET storedBytes = storedBytes - OLD.bodySize WHERE tenant = (CASE WHEN OLD.sessionId IS NULL THEN substr(OLD.storage, 8) ELSE (SELECT tenant FROM session WHERE id = OLD.sessionId) END);
END;
CREATE INDEX event_deliveredAt ON event(deliveredAt) WHERE deliveredAt IS NOT NULL;
CREATE INDEX task_completedAt ON task(completedAt) WHERE completedAt IS NOT NULL;
CREATE INDEX task_partialPath ON task(completedAt) WHERE partialPath IS NOT NULL;
CREATE INDEX session_invalidatedAt ON session(invalidatedAt) WHERE state = 'invalidated';
CREATE INDEX "task_node" ON "task"("node");
CREATE INDEX "task_unclaimed" ON "task"("rowid") WHERE ("state" = 'running') AND ("node" IS NULL);
COMMIT;
