#!/bin/sh
# Container entrypoint for every target of the one image.
#   --target=<name> [...]  runs the compiled launcher, plain node (gateway, identity, content, assessment,
#                          classroom, chat); the working directory is the runtime tree (/app)
#   anything else          runs as given (node deploy/init-secrets.mjs, sh, ...)
# VAR_FILE=/path sets VAR from that file, so compose secrets and mounted keys never sit in the
# environment of the container definition (the convention of the official postgres image).
set -eu

for var in AUTH_PUBLIC_KEY AUTH_PRIVATE_KEY DATABASE_URL NATS_URL REDIS_URL ADMIN_EMAIL ADMIN_PASSWORD; do
  eval "file=\${${var}_FILE:-}"
  [ -n "$file" ] || continue
  eval "direct=\${${var}:-}"
  if [ -n "$direct" ]; then
    echo "docker-entrypoint: both $var and ${var}_FILE are set; set only one" >&2
    exit 64
  fi
  if [ ! -r "$file" ]; then
    echo "docker-entrypoint: ${var}_FILE=$file is not a readable file" >&2
    exit 66
  fi
  value=$(cat "$file")
  export "$var=$value"
  unset "${var}_FILE"
done

case "${1:-}" in
  --*) exec node launcher/dist/main.js "$@" ;;
  "") echo "docker-entrypoint: give --target=<name> or a command" >&2; exit 64 ;;
  *) exec "$@" ;;
esac
