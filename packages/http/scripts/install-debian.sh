#!/usr/bin/env bash
# Installs Garrison as a systemd service on a fresh Debian (12, 13) or
# Ubuntu (22.04, 24.04) host, as root:
#
#   sudo packages/http/scripts/install-debian.sh              # from a clone
#   sudo ./install-debian.sh garrison-0.1.0.tgz               # from a package (`npm run pack`)
#
# What it does, each step skipped when already done (so running it again
# upgrades the package and keeps the data):
#   1. Node.js 20 or newer: the distribution's `nodejs` when it is new
#      enough, else NodeSource's node_20.x apt repository (its signing key
#      into /etc/apt/keyrings, the repository pinned to it);
#      build tools for better-sqlite3 when no prebuilt binary fits.
#   2. A system user `garrison` (no login shell, home = the data folder).
#   3. The package: built with `npm ci && npm run pack` from a clone, or the
#      given .tgz, unpacked into /opt/garrison/<name-version>, its
#      dependencies installed as its npm-shrinkwrap.json pins them (`npm
#      ci`), then /opt/garrison/current pointed at it and
#      /usr/local/bin/garrison at its command line.
#   4. /var/lib/garrison (DATA_DIR, 0750), /srv/garrison (game servers),
#      /etc/garrison/garrison.env (0640 root:garrison; settings, kept when
#      present).
#   5. The unit: `garrison service install` (hardened: see its --help), then
#      `systemctl daemon-reload` and `systemctl enable --now garrison`.
# The first admin's one-time password is in `journalctl -u garrison`.
#
# Options: --dry-run prints the commands instead of running them;
# --prefix, --data-dir, --servers-dir, --user change the folders and user.
set -euo pipefail

prefix=/opt/garrison
data_dir=/var/lib/garrison
servers_dir=/srv/garrison
user=garrison
dry_run=0
package=""

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --prefix) prefix="$2"; shift ;;
    --data-dir) data_dir="$2"; shift ;;
    --servers-dir) servers_dir="$2"; shift ;;
    --user) user="$2"; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) package="$1" ;;
  esac
  shift
done

say() { echo "install: $*" >&2; }
# Runs a command, or prints it with --dry-run.
step() {
  if [ "$dry_run" -eq 1 ]; then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}

if [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  say "run as root (sudo $0 ...), or with --dry-run to see the steps"
  exit 1
fi
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  . /etc/os-release
  case "${ID:-}:${ID_LIKE:-}" in
    debian:*|ubuntu:*|*:*debian*) ;;
    *) say "this script is for Debian and Ubuntu (found ${PRETTY_NAME:-unknown}); install Node 20 and the package by hand" ; exit 1 ;;
  esac
fi

# 1. Node.js >= 20.10
node_ok() {
  command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=10)?0:1)'
}
if node_ok; then
  say "Node.js $(node --version) is new enough"
else
  step apt-get update
  candidate=$(apt-cache policy nodejs 2>/dev/null | awk '/Candidate:/ {print $2}')
  # "20.19.2+dfsg-1" or "1:20.x": the major version, without an epoch.
  major=$(echo "${candidate:-}" | sed -E 's/^[0-9]+://; s/[^0-9].*$//')
  if [ -n "$major" ] && [ "$major" -ge 20 ]; then
    say "installing the distribution's nodejs $candidate"
    step env DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
  else
    say "the distribution's nodejs is older than 20; adding NodeSource's node_20.x repository"
    step env DEBIAN_FRONTEND=noninteractive apt-get install -y ca-certificates curl gnupg
    step install -d -m 0755 /etc/apt/keyrings
    step sh -c 'curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor --yes -o /etc/apt/keyrings/nodesource.gpg'
    step sh -c 'echo "deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x nodistro main" > /etc/apt/sources.list.d/nodesource.list'
    step apt-get update
    step env DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs
  fi
fi
# better-sqlite3 builds from source when no prebuilt binary matches the host.
step env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends build-essential python3

# 2. The service user.
if id -u "$user" >/dev/null 2>&1; then
  say "user $user exists"
else
  step useradd --system --home-dir "$data_dir" --shell /usr/sbin/nologin --user-group "$user"
fi

# 3. The package.
if [ -z "$package" ]; then
  clone="$(cd "$(dirname "$0")/../../.." && pwd)"
  if [ ! -f "$clone/packages/http/scripts/pack.mjs" ]; then
    say "no package given and $clone is not a Garrison clone; pass the .tgz made by npm run pack"
    exit 2
  fi
  say "building the package from the clone at $clone"
  step sh -c "cd '$clone' && npm ci --no-audit --no-fund && node packages/http/scripts/pack.mjs --out '$clone' > '$clone/.pack-path'"
  if [ "$dry_run" -eq 1 ]; then package="$clone/garrison-<version>.tgz"; else package="$(tail -n 1 "$clone/.pack-path")"; rm -f "$clone/.pack-path"; fi
fi
# Each version in a folder of its own, installed exactly as the package's npm-shrinkwrap.json pins it
# (`npm ci`), then `current` switched to it: an upgrade never mixes two versions' files, and the
# previous version stays for a rollback (point `current` back and restart).
version_dir="$prefix/$(basename "$package" .tgz)"
step install -d -m 0755 "$prefix"
step rm -rf "$version_dir.partial"
step install -d -m 0755 "$version_dir.partial"
step tar -xzf "$package" -C "$version_dir.partial" --strip-components=1 --no-same-owner
step sh -c "cd '$version_dir.partial' && npm ci --omit=dev --no-audit --no-fund"
step rm -rf "$version_dir"
step mv "$version_dir.partial" "$version_dir"
step ln -sfn "$version_dir" "$prefix/current"
step ln -sfn "$prefix/current/bin/garrison.mjs" /usr/local/bin/garrison
garrison="$prefix/current/bin/garrison.mjs"

# 4. Folders and settings.
step install -d -m 0750 -o "$user" -g "$user" "$data_dir"
step install -d -m 0750 -o "$user" -g "$user" "$servers_dir"
step install -d -m 0755 /etc/garrison
if [ -e /etc/garrison/garrison.env ]; then
  say "keeping /etc/garrison/garrison.env"
else
  step sh -c "umask 027 && printf '%s\n' '# Garrison settings (see the README); the service reads this file at start.' 'DATA_DIR=$data_dir' 'HOST=127.0.0.1' 'PORT=8080' > /etc/garrison/garrison.env"
  step chgrp "$user" /etc/garrison/garrison.env
fi

# 5. The unit.
step "$garrison" service install --user "$user" --data-dir "$data_dir" --servers-dir "$servers_dir"
step systemctl daemon-reload
step systemctl enable --now garrison
say "done: the controller listens on 127.0.0.1:8080 (put a TLS proxy in front, or set HOST in /etc/garrison/garrison.env)"
say "the first admin's one-time password: journalctl -u garrison | grep -i password"
