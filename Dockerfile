# syntax=docker/dockerfile:1
#
# Linkdock: one image for the API server, the worker and the CLI.
#
#   docker build -t linkdock .
#   docker run --init -p 3000:3000 -v linkdock-data:/data linkdock          # SQLite in /data
#   docker run --rm --init -v linkdock-data:/data linkdock \
#     node dist/apps/cli/src/main.js user:create --email you@example.com     # the CLI
#
# Pass --init to `docker run` (docker compose: `init: true`) so that a tiny init runs as PID 1,
# forwards SIGTERM to node and reaps zombies; node itself then shuts Nest down gracefully.

# Node 24 LTS, as package.json's engines and .nvmrc ask; Debian bookworm (glibc) in both stages.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# Build stage: compile TypeScript; better-sqlite3's native addon only where no prebuild fits.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build

# better-sqlite3 13 ships prebuilt addons inside its package (prebuilds/linux-x64.node,
# linux-arm64.node, ...) and npm compiles nothing. On a platform without one, or where it does not
# load, the install step below compiles it from the package's sources with node-gyp, which needs
# python3, make and g++: kept as that fallback.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# No usage reporting from @scarf/scarf (pulled in by swagger-ui-dist), no npm update nagging.
ENV SCARF_ANALYTICS=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# Dependencies first: this layer is rebuilt only when package.json or the lockfile change.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci \
 && (node -e "new (require('better-sqlite3'))(':memory:').close()" \
     || (cd node_modules/better-sqlite3 && npm run build-release))

# Then the sources (tsconfig.build.json extends tsconfig.json; nest-cli.json defines the projects).
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY libs ./libs
COPY apps ./apps
# Social icons of email signatures, served under /assets/.
COPY assets ./assets
RUN npm run build \
 && test -f dist/apps/api/src/main.js \
 && test -f dist/apps/cli/src/main.js \
 && test -f dist/apps/worker/src/main.js

# Keep only production dependencies. Of better-sqlite3 only the addon node loads is needed at run
# time: build/Release/better_sqlite3.node after a source build (it comes first), otherwise the
# prebuild for this platform. The other platforms' prebuilds (~15 MB), the SQLite sources (~10 MB)
# and a source build's object files go; then node must still open a database.
RUN npm prune --omit=dev \
 && cd node_modules/better-sqlite3 \
 && if [ -f build/Release/better_sqlite3.node ]; then \
      rm -rf prebuilds; \
    else \
      keep="$(basename "$(node -p "require('./lib/binding').getPrebuildPath()")")" \
      && find prebuilds -type f ! -name "$keep" -delete \
      && rm -rf build; \
    fi \
 && rm -rf build/Release/obj build/Release/obj.target build/Release/.deps build/Release/*.a \
           build/Release/test_extension.node build/deps deps src \
 && cd /app \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"

# ---------------------------------------------------------------------------------------------
# Runtime stage: same Debian release as the build stage, so the native addon's glibc matches.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime

ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data

WORKDIR /app

# Owned by root and read-only for the app user; only /data is writable.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/assets ./assets

# SQLite database (when DATABASE_URL is unset) and other files live in /data. A named volume
# mounted here starts out owned by `node`; a bind-mounted host folder must be writable by uid 1000.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

USER node

EXPOSE 3000

# No curl in slim images: ask node itself. 200 means the database (and Redis, if configured) is up.
# The start period leaves room for the migrations applied at start.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]

# node directly (not `npm start`, which would rebuild and not forward SIGTERM).
# --max-semi-space-size=16: Node 24's V8 gives the young generation 64 MB semi-spaces where Node 20
# gave 16; back at 16, RSS under bench:redirect's realistic mix is ~320 MB instead of ~400 MB, with
# more but shorter scavenges (README, Benchmarks). npm start and start:prod pass the same flag.
CMD ["node", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
