# Stand-in for the official rabbitmq image where Docker Hub cannot be reached: Debian's rabbitmq-server,
# user `rabbitmq` (uid 999) owning /var/lib/rabbitmq, logging to stdout, as in the official image.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN groupadd --system --gid 999 rabbitmq \
 && useradd --system --uid 999 --gid rabbitmq --home-dir /var/lib/rabbitmq --no-create-home rabbitmq \
 && apt-get update \
 && apt-get install -y --no-install-recommends rabbitmq-server \
 && rm -rf /var/lib/apt/lists/* /var/lib/rabbitmq/.erlang.cookie \
 && install -d -o rabbitmq -g rabbitmq /var/lib/rabbitmq
# Debian's /usr/sbin wrappers send the server's output to /var/log/rabbitmq (read-only here): the scripts
# behind them come first in PATH.
ENV PATH=/usr/lib/rabbitmq/bin:$PATH \
    RABBITMQ_LOGS=- \
    HOME=/var/lib/rabbitmq
VOLUME /var/lib/rabbitmq
EXPOSE 5672
CMD ["rabbitmq-server"]
