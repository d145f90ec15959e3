# sendbox's container image, built from the packed tarball: the same package `npm i sendbox`
# installs, never the repository's sources.
#   docker build -t sendbox .
#   docker run --rm -p 8025:8025 -p 1025:1025 -v sendbox-data:/data sendbox
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Pack: build the bundle and the inbox (prepack) into sendbox.tgz.
FROM ${NODE_IMAGE} AS pack
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /pkg && mv /pkg/sendbox-*.tgz /pkg/sendbox.tgz

# 2. Install the tarball as a user would (better-sqlite3 compiles here, hence the toolchain).
FROM ${NODE_IMAGE} AS install
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/sendbox
COPY --from=pack /pkg/sendbox.tgz /tmp/sendbox.tgz
RUN npm init -y >/dev/null && npm install --omit=dev --no-audit --no-fund /tmp/sendbox.tgz

# 3. Run: no toolchain, no npm cache, a non-root user, the database in a volume.
FROM ${NODE_IMAGE}
COPY --from=install /opt/sendbox /opt/sendbox
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
    SENDBOX_HOST=0.0.0.0 \
    SENDBOX_PORT=8025 \
    SENDBOX_SMTP_PORT=1025 \
    SENDBOX_DB=/data/sendbox.db
VOLUME /data
EXPOSE 8025 1025
USER node
# /sandbox/health answers without --ui-auth's credentials and to loopback names, so the probe
# works on a shared host too.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.SENDBOX_PORT+'/sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/opt/sendbox/node_modules/.bin/sendbox"]
