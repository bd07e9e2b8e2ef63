# The production image for the API (`node --max-semi-space-size=32 dist/server/main.js`, the
# default command; its flags are server/node-flags.ts's), the worker
# (`node dist/worker/main.js`) and the migrations (`node dist/scripts/migrate.js`): docker-compose.yml
# and the Helm chart (deploy/helm/svc-postal) run it with those commands. Two targets: the default,
# `printing`, has Chromium and runs everything; `app` (`docker build --target app`) is the same
# without the browser, for every process but the printing workers (the chart's `image.printingTag`).
#
# `npm test` replays this file without Docker (test/e2e/production-image.test.ts): it copies the
# context filtered by .dockerignore, follows each stage's FROM, WORKDIR, USER, COPY and RUN below
# (tsc replaced by the build under test, apt-get recorded, not run), then boots the API and the
# workers from the stages' files with APP_ENV=production, the printing worker as uid 1000 on a
# read-only root. Keep to WORKDIR, ENV, USER, COPY (no wildcards) and RUN lines the check knows
# (npm ci, npx tsc, sh scripts/deploy/…, apt-get), or teach it the new one.

# Node 24 (LTS, supported until April 2028), held by digest: the tag is a name its owner moves, the
# digest is the image. To move to a newer Node 24, take the new tag's digest
# (`docker buildx imagetools inspect node:24.X.Y-bookworm-slim`) and change the three FROM lines and
# IMAGE_NODE in scripts/local/image-node.ts together: `npm test` runs the image's processes on that
# same Node (test/e2e/production-image.test.ts).

# Production dependencies only, from the lockfile. Install scripts stay off: no dependency needs
# one at run time (the fonts are plain files; embedded-postgres, the only one with a script, is a
# development dependency). The packaged Chromium is removed: the image prints with Debian's.
FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY scripts/deploy/prune-image-deps.sh scripts/deploy/
RUN sh scripts/deploy/prune-image-deps.sh node_modules

# The whole tree (less .dockerignore), compiled with every dependency; then only what runs is kept
# aside (scripts/deploy/runtime-files.sh: dist/, the catalogue, prompts, the common-passwords list).
FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.json
RUN sh scripts/deploy/runtime-files.sh . runtime

# `app`: the API, the migrations, the replay check and the workers without the printing role; no
# browser (`docker build --target app`). tini is PID 1: it passes signals to node and reaps
# orphaned children.
FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS app
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini \
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
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=32", "dist/server/main.js"]

# `printing` (the default target): the same, plus Debian's chromium, for the workers with the
# printing role (letters and proofs as PDF; activities/pdf/chromium.ts finds it on PATH,
# PUPPETEER_EXECUTABLE_PATH overrides it). The fonts ship in node_modules. tini reaps the processes
# a browser leaves behind when it crashes or is killed. Every process runs from it too, when one
# image is enough (the chart's `image.printingTag` unset).
FROM app AS printing
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
USER node
