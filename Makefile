# urlsessiond — the two commands: `make run` and `make test`.
# Both install what is missing on a fresh Debian machine first (apt-get, with sudo when not root).
SHELL := /bin/bash
.DEFAULT_GOAL := run

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST ?= 127.0.0.1
PORT ?= 8080
DATA_DIR ?= ./data
VENV := .venv
## pyspnego: the NTLM acceptor of the NTLM test origin (Tests/Fixtures/ntlm_origin.py); pyftpdlib and
## pyOpenSSL (its TLS): the FTP and FTPS origin (Tests/Fixtures/ftp_origin.py). moto[server]: the S3-compatible
## object store the object store tests run against (Tests/Fixtures/s3_server.py; MinIO is on neither Debian nor PyPI).
## playwright: drives Debian's chromium through the console's pages (Tests/Fixtures/console_browser.py); it
## uses /usr/bin/chromium, so its own browser download (`playwright install`) is never needed.
## openapi-python-client and ruff (which formats its output): clients/python's generated client, regenerated
## and compared by PythonClientTests; httpx is that client's transport, pytest runs its tests.
PYTHON_TEST_PACKAGES := schemathesis==4.32.5 standardwebhooks==1.1.0 pyspnego==0.12.4 pyftpdlib==2.2.0 pyOpenSSL==26.4.0 websockets==17.4 \
	moto[server]==5.2.5 playwright==1.65.2 openapi-python-client==0.29.1 ruff==0.17.6 httpx==0.28.1 pytest==9.2.0

# Build: libcurl (OpenSSL), OpenSSL itself (libssl-dev: the certificate and PKCS#12 code), libmicrohttpd,
# SQLite, pkg-config; at run time the public suffix list (publicsuffix: which domains may not take cookies).
# Tests: python3-venv for schemathesis, nginx for a standard origin, iproute2 for the network-namespace
# tests of network paths, postgresql for the second store backend (started by the tests themselves in a
# temporary directory), chromium for the console's browser tests, dante-server for a SOCKS5 proxy with a
# login (started by the tests on a free loopback port). Benchmarks: wrk, aria2, curl.
BUILD_PACKAGES := libcurl4-openssl-dev libssl-dev libmicrohttpd-dev libsqlite3-dev pkg-config publicsuffix
TEST_PACKAGES := python3-venv python3-pip nginx-light curl brotli zstd openssl iproute2 postgresql chromium dante-server
BENCH_PACKAGES := wrk aria2 curl

.PHONY: run test test-ready build-tests test-postgres postgres-suites build release deps test-deps bench-deps clean container-smoke postgres-smoke format lint \
	console-screenshot python-client openapi-swift-lint

## Installs the Debian packages named in $(1) that are not installed yet.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES))

## The test tools and the Python venv; the venv's stamp (.test-packages) records the list it was built
## with, so a package added to PYTHON_TEST_PACKAGES reaches existing venvs too.
test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))
	@if [ "$$(cat $(VENV)/.test-packages 2>/dev/null)" != "$(PYTHON_TEST_PACKAGES)" ]; then \
		echo "Installing $(PYTHON_TEST_PACKAGES) into $(VENV)"; \
		{ [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
		$(VENV)/bin/pip install -q --disable-pip-version-check $(PYTHON_TEST_PACKAGES) && \
		echo "$(PYTHON_TEST_PACKAGES)" > $(VENV)/.test-packages; \
	fi

bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

## Release build of the service.
release: deps
	$(SWIFT) build -c release --product urlsessiond -Xswiftc -warnings-as-errors

build: deps
	$(SWIFT) build -Xswiftc -warnings-as-errors

## Starts the service on $(HOST):$(PORT) with its data under $(DATA_DIR).
run: release
	@mkdir -p $(DATA_DIR)
	exec $$($(SWIFT) build -c release --show-bin-path)/urlsessiond serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

## The Swift sources `.swift-format` governs (the toolchain's `swift format`).
FORMATTED := Sources Tests Package.swift Benchmarks/json/Package.swift Benchmarks/json/Sources/JSONBenchmark \
	Benchmarks/cookies/Package.swift Benchmarks/cookies/Sources/CookieBenchmark

## Formats the sources in place.
format:
	$(SWIFT) format format --in-place --recursive $(FORMATTED)

## Fails on any drift from `.swift-format` (part of `make test`, so CI fails on it too).
lint:
	$(SWIFT) format lint --strict --recursive $(FORMATTED)
	python3 tools/check_imports.py

## Every test: the format check, unit tests and end-to-end tests against the real binary, on SQLite;
## then the suites that use the store again on PostgreSQL (`test-postgres`).
test: test-ready
	# Three tests at a time: each starts real servers and services, and more than that on 2 cores turns
	# the timing-sensitive ones (idle timeouts, suspend, retries) into a test of the scheduler.
	# A failure is repeated at the end, where a CI log's tail shows it.
	set -o pipefail; SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=3 URLSESSIOND_TEST_VENV=$(CURDIR)/$(VENV) \
		$(SWIFT) test --skip-build 2>&1 | tee .build/test.log || { \
		echo "--- failed ---"; grep -A1 'recorded an issue' .build/test.log | head -n 80; exit 1; }
	$(MAKE) --no-print-directory postgres-suites

## What the tests need, made side by side: the test packages and the venv (apt and pip, mostly waiting on the
## network and the disk on a fresh machine) and the format check run beside the build instead of before it.
test-ready: deps
	$(MAKE) --no-print-directory -j3 test-deps lint build-tests

build-tests: deps
	# Not `--disable-index-store`, though it saves about a tenth of a cold build's compile time: SwiftPM's
	# test discovery on Linux reads the index, and without it the build stops ("index store path does not exist").
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

## The store's tests, the delivery tests and the integration suites that use the store, on PostgreSQL: every test store
## and service gets a database of its own on a cluster the tests start (`TestSupport/PostgresServer`).
test-postgres: test-ready
	$(MAKE) --no-print-directory postgres-suites

## Skipped there: the multi-node suite (its nodes always run on PostgreSQL, in the first pass); the console's
## browser tests (they look at the page, the same whatever the store); the origins' own tests (no service);
## and the suites whose subject is the transfer or a client — bandwidth, proxies, NTLM, TLS, codings,
## informational and multipart responses, network paths, timeouts, streamed uploads, the WebSocket relay,
## slow clients, the command line and the Python client — which ask the store only what every other suite
## asks it (create a task, record its completion), so a second pass there adds minutes, not coverage. Those
## with a restart (segments, mirrors, WebSocket tasks, extra protocols) stay: recovery reads the store.
POSTGRES_SKIP_SUITES := MultiNode ConsoleTests FixtureOriginTests NTLMOriginTests PathOriginTests TestSupportSmokeTests \
	BandwidthLimitTests SOCKSProxyTests ProxyEgressTests NTLMTests TasksTLSTests TasksContentCodingTests \
	InformationalResponseTests MultipartReplaceTests NetworkPathSelectionTests TasksTimeoutTests \
	StreamedUploadsTests WebSocketRelayTests SlowClientTests CommandLineTests PythonClientTests
space := $(subst ,, )
POSTGRES_SKIP = $(subst $(space),|,$(strip $(POSTGRES_SKIP_SUITES)))
POSTGRES_SUITES = IntegrationTests|TransferStoreTests|EventDeliveryTests
postgres-suites:
	set -o pipefail; URLSESSIOND_TEST_STORE=postgres SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=3 \
		URLSESSIOND_TEST_VENV=$(CURDIR)/$(VENV) $(SWIFT) test --skip-build --filter '$(POSTGRES_SUITES)' --skip '$(POSTGRES_SKIP)' 2>&1 \
		| tee .build/test-postgres.log || { \
		echo "--- failed on PostgreSQL ---"; grep -A1 'recorded an issue' .build/test-postgres.log | head -n 80; exit 1; }

## Apple's swift-openapi-generator over openapi.yaml as a lint (builds the generator first, about 2 minutes; not in
## `make test`, whose fresh-clone run is already over its 20 minutes: about 25).
openapi-swift-lint: deps
	tools/openapi-swift-lint.sh

container-smoke:
	# Tokens shorter than 16 characters stop the service at start, so the smoke's default one is replaced.
	SMOKE_TOKENS=$${SMOKE_TOKENS:-smoke-token-0123456789:tenant:admin} PROJECT_DIR=$(CURDIR) ../shared/tools/container-smoke

## The image as compose.yaml runs it: two containers on a PostgreSQL started on the host, one data
## directory, nginx with deploy/nginx.conf in front (deploy/postgres-smoke; builds the image with
## container-smoke first when it is absent).
postgres-smoke:
	CONTAINER_SMOKE=$(CURDIR)/../shared/tools/container-smoke deploy/postgres-smoke

## Regenerates clients/python/urlsessiond_client from openapi.yaml (after editing the document; `make test`
## fails until the committed client is what the generator makes of it).
python-client: test-deps
	URLSESSIOND_TEST_VENV=$(CURDIR)/$(VENV) clients/python/generate.sh

## README's picture of the console (docs/console.png), taken by the console's browser test mid-download.
console-screenshot: test-deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	URLSESSIOND_CONSOLE_SCREENSHOT=$(CURDIR)/docs/console.png URLSESSIOND_TEST_VENV=$(CURDIR)/$(VENV) \
		$(SWIFT) test --skip-build --filter 'ConsoleTests/aSlowDownloads'

clean:
	rm -rf .build $(VENV)
