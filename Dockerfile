# One multi-target file for the four services:
#   docker build --target gateway -t spam-check/gateway .   (likewise auth, email-detector, text-detector)
# The build stage compiles the whole workspace once; `pnpm deploy` then copies, per service, only its own
# files, its built workspace dependencies and its production node_modules into /out/<service>.
# No `# syntax=` line: the engine's built-in frontend builds this file, so a builder without registry access
# (air-gapped, or reaching an npm mirror only) needs no frontend image. The base image is a build argument:
# compose passes NODE_IMAGE when it is set.
ARG NODE_IMAGE=node:22.23.4-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    CI=true
RUN corepack enable
WORKDIR /repo
# The lockfile alone is enough to fetch every package: this layer is reused until the lockfile changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm fetch --frozen-lockfile
# Only what the build reads: a change of the docs, scripts or root tests does not rebuild the images.
COPY tsconfig.base.json ./
COPY packages ./packages
COPY services ./services
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile --offline
# The four services and the workspace packages they depend on (`...`; devDependencies not followed), not
# the CLI, the SDK or the test kits. `--noCheck`: tsc emits the same files without type-checking them (every
# file compiles on its own, `isolatedModules`); the types are checked where the code is, by `pnpm typecheck`
# in CI. Checking them again here took 210-230 s of a 2-core machine, emitting alone takes seconds.
RUN pnpm --filter-prod "@spam-check/gateway..." --filter-prod "@spam-check/auth..." \
      --filter-prod "@spam-check/email-detector..." --filter-prod "@spam-check/text-detector..." \
      build --noCheck
# pnpm 10 deploys only with injected workspace packages; the setting is given here, for the deploy alone, so
# the developers' workspace keeps its symlinked packages. Each /out/<service> holds dist/, package.json and a
# node_modules with the built dist/ of @spam-check/* dependencies (no devDependencies). Each package's
# "files" list keeps its sources, tests, benches and tsconfig files out; the lockfile pnpm deploy writes
# there is removed (the image installs nothing).
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    for service in gateway auth email-detector text-detector; do \
      pnpm --filter "@spam-check/${service}" deploy --prod --offline \
        --config.inject-workspace-packages=true "/out/${service}" || exit 1; \
      rm "/out/${service}/pnpm-lock.yaml" || exit 1; \
    done

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The files stay owned by root and read-only for the process; the app writes nothing but logs to stdout.
USER node
STOPSIGNAL SIGTERM

FROM runtime AS gateway
COPY --from=build /out/gateway /app
ENV GATEWAY_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.GATEWAY_PORT+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]

FROM runtime AS auth
COPY --from=build /out/auth /app
ENV AUTH_PORT=8081
EXPOSE 8081
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.AUTH_PORT+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]

FROM runtime AS email-detector
COPY --from=build /out/email-detector /app
ENV EMAIL_DETECTOR_PORT=8082
EXPOSE 8082
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.EMAIL_DETECTOR_PORT+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]

FROM runtime AS text-detector
COPY --from=build /out/text-detector /app
ENV TEXT_DETECTOR_PORT=8083
EXPOSE 8083
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.TEXT_DETECTOR_PORT+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
