# Doorstep in a container: the alternative to `npm install && npm start` (see README).
# Build: docker build -t doorstep .   Run: docker run -p 5000:5000 -v doorstep-data:/data doorstep

# Node 22 LTS (security fixes until April 2027); the code also runs on 20.19+ and 24 (README).
FROM node:22-bookworm-slim AS build
# The engines' headers and a compiler, for the two live-call helpers (native/*.c).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    pocketsphinx pocketsphinx-en-us libpocketsphinx-dev libsphinxbase-dev espeak-ng libespeak-ng-dev \
    gcc libc6-dev pkg-config \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Exactly the locked versions and checksums (the lock lists every platform package).
RUN npm ci --no-audit --no-fund
COPY . .
RUN bash scripts/build-native.sh && npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# Only the runtime engines: the offline recogniser and its English model, espeak-ng, and
# Debian's maintained ffmpeg to decode uploads, and bzip2 to unpack the models fetched at start.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    pocketsphinx pocketsphinx-en-us espeak-ng flite ffmpeg bzip2 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production PORT=5000 DATA_DIR=/data DOORSTEP_POSTINSTALL=off
VOLUME /data
EXPOSE 5000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "server/main.ts"]
