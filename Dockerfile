# urlsessiond container image.
#
#   docker build -t urlsessiond .
#   docker run -p 8080:8080 -v urlsessiond-data:/data -e URLSESSIOND_TOKENS=change-me-0123456789abcdef:tenant:admin urlsessiond
#
# The image refuses to start without URLSESSIOND_TOKENS (URLSESSIOND_REQUIRE_TOKENS=1): a container has no
# operator at hand to read a generated token file. Every `serve` flag is also a URLSESSIOND_* variable.

# ---------------------------------------------------------------- build
FROM swift:6.3.1-bookworm AS build

# The system libraries the package's CCurl / CMicroHTTPD targets and GRDB link against, and libxml2 for
# FoundationXML (the Metalink parser).
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
 && apt-get -q update \
 && apt-get -q install -y --no-install-recommends \
      libcurl4-openssl-dev libssl-dev libmicrohttpd-dev libsqlite3-dev libxml2-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Where local git mirrors of the Swift packages may be bind-mounted (owner/name.git, as on GitHub).
# When that directory is present and not empty, https://github.com/OWNER/NAME resolves to
# $SWIFT_PACKAGES_MIRROR/OWNER/NAME(.git), so no network is needed; otherwise GitHub is used.
ARG SWIFT_PACKAGES_MIRROR=/opt/swift-packages

# Dependencies first, in a layer of their own that survives source edits.
# (.dockerignore keeps Package.resolved and .build/ out: versions are resolved here, from the manifest.)
COPY Package.swift ./
RUN if [ -d "$SWIFT_PACKAGES_MIRROR" ] && [ -n "$(ls -A "$SWIFT_PACKAGES_MIRROR")" ]; then \
      git config --global --replace-all url."${SWIFT_PACKAGES_MIRROR%/}/".insteadOf https://github.com/ ; \
    fi \
 && swift package resolve

# Resource bundles (urlsessiond_URLSessionService.resources: openapi.yaml; GRDB_GRDB.resources) must sit
# beside the executable, where Bundle.module looks for them: stage them together.
COPY . .
RUN swift build -c release --static-swift-stdlib -Xswiftc -warnings-as-errors --product urlsessiond \
 && bin="$(swift build -c release --show-bin-path)" \
 && mkdir -p /staging \
 && cp "$bin/urlsessiond" /staging/ \
 && cp -R "$bin"/*.resources /staging/ \
 && test -f /staging/urlsessiond_URLSessionService.resources/openapi.yaml

# Debug information is about two thirds of the binary (184 MB with the Swift runtime linked in). Its symbol
# table stays, so a crash's backtrace still names the functions. A step of its own: the build above stays cached.
RUN strip --strip-debug /staging/urlsessiond

# ---------------------------------------------------------------- runtime
FROM debian:bookworm-slim

# Shared libraries the binary links (the Swift runtime and Foundation are linked in statically; FoundationXML
# still needs libxml2);
# the public suffix list the cookie rules read; curl only for the HEALTHCHECK (it reuses libcurl4, so it
# costs a few hundred kB).
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
 && apt-get -q update \
 && apt-get -q install -y --no-install-recommends \
      libcurl4 libmicrohttpd12 libsqlite3-0 libxml2 publicsuffix ca-certificates curl iproute2 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 urlsessiond \
 && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home \
      --shell /usr/sbin/nologin urlsessiond \
 && install -d -o urlsessiond -g urlsessiond -m 0700 /data

COPY --from=build /staging/ /usr/local/bin/

ENV URLSESSIOND_HOST=0.0.0.0 \
    URLSESSIOND_PORT=8080 \
    URLSESSIOND_DATA_DIR=/data \
    URLSESSIOND_REQUIRE_TOKENS=1

USER urlsessiond:urlsessiond
WORKDIR /data
VOLUME /data
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD curl -fsS --noproxy '*' --max-time 4 -o /dev/null "http://127.0.0.1:${URLSESSIOND_PORT:-8080}/healthz" || exit 1

STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/urlsessiond"]
CMD ["serve"]
