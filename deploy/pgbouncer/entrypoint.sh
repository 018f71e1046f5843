#!/bin/sh
# Writes PgBouncer's auth file from the environment, then runs it in the foreground.
set -eu
printf '"%s" "%s"\n' "$POSTGRES_USER" "$POSTGRES_PASSWORD" > /tmp/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
