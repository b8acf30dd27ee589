# Stand-in for the official redis image where Docker Hub cannot be reached: Debian's redis-server, user
# `redis` (uid 999) owning /data, as in the official image.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN groupadd --system --gid 999 redis \
 && useradd --system --uid 999 --gid redis --home-dir /data --no-create-home redis \
 && apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && install -d -o redis -g redis /data
WORKDIR /data
VOLUME /data
EXPOSE 6379
CMD ["redis-server"]
