# Shared by the tool-chain installers (scripts/e2e/toolchain.sh, scripts/hosts/toolchain.sh): a cache
# folder of versioned component folders, each installed only once its ".complete" marker exists, so
# a version bump or an interrupted install reinstalls it. Sourced after CACHE and log are defined.

is_complete() { [ -f "$1/.complete" ]; }
mark_complete() { date -u +%FT%TZ > "$1/.complete"; }

# Removes older versions of one component (only our own folders inside the cache).
prune_other_versions() { # prefix keep
  local d
  for d in "$CACHE/$1"-*; do
    [ -d "$d" ] && [ "$d" != "$2" ] && { log "removing outdated $(basename "$d")"; rm -rf "$d"; }
  done
  return 0
}
