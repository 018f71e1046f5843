#!/bin/sh
# The key tool where pnpm is not (the container image): ./keys.sh create --name <label>, list, revoke,
# rotate; in a checkout, `pnpm keys` runs the same. Same settings as the service (DATABASE_URL …).
exec "${NODE:-node}" "$(dirname "$0")/dist/bin/keys.js" "$@"
