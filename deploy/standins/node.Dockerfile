# Stand-in for the official node image where Docker Hub cannot be reached: Debian's Node.js (>= 20.19, which
# the workspace supports) with corepack, as user `node` (uid 1000) like the official image. Built by
# scripts/deploy/images.sh on top of a debootstrapped Debian; the official image is used whenever it pulls.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --create-home --shell /bin/sh node
# The machine that builds this may reach the npm registry only through a TLS-intercepting proxy: its CA
# bundle is trusted inside, and corepack is told that the registry's signatures are stripped.
COPY host-ca-certificates.crt /etc/ssl/certs/host-ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-certificates.crt \
    COREPACK_INTEGRITY_KEYS=0
CMD ["node"]
