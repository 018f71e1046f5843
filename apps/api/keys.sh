#!/bin/sh
# The key tool where pnpm is not (the container image): ./keys.sh create --name <label>, list, revoke,
# rotate, as `pnpm keys` in a checkout. Same settings as the service (DATABASE_URL …).
exec "${NODE:-node}" "$(dirname "$0")/dist/bin/keys.js" "$@"
