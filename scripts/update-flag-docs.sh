#!/usr/bin/env bash
# Regenerates the qs_server flag tables of the docs from the flags the binary registers: every block
# between `<!-- flags:begin GROUP -->` and `<!-- flags:end -->` in README.md and docs/*.md becomes
# what `qs_server --print_flag_tables` prints for GROUP (docs/operations.md, "Server flags").
#   scripts/update-flag-docs.sh [--check] [QS_SERVER]
# QS_SERVER defaults to build/server/qs_server. --check changes nothing: it exits 1 when a block
# differs from the binary's table (showing the difference) or a group has no block in any doc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [[ ${1-} == --check ]]; then
  check=1
  shift
fi
server=${1:-$root/build/server/qs_server}
regenerate="scripts/update-flag-docs.sh (after building qs_server)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$server" --print_flag_tables >"$work/tables"
groups=$(sed -n 's/^<!-- flags:begin \([a-z_]*\) -->$/\1/p' "$work/tables")
[[ -n $groups ]] || {
  echo "$server --print_flag_tables printed no group" >&2
  exit 1
}

status=0
seen=""
for doc in "$root"/README.md "$root"/docs/*.md; do
  grep -q '^<!-- flags:begin ' "$doc" || continue
  name=${doc#"$root"/}
  seen+=" $(sed -n 's/^<!-- flags:begin \([a-z_]*\) -->$/\1/p' "$doc" | tr '\n' ' ')"
  # Each block's lines are replaced by the lines between the same group's markers in the binary's
  # output; everything outside the blocks is copied as it is.
  if ! awk -v tables="$work/tables" -v doc="$name" '
    BEGIN {
      while ((getline line < tables) > 0) {
        if (line ~ /^<!-- flags:begin [a-z_]+ -->$/) {
          group = line
          sub(/^<!-- flags:begin /, "", group)
          sub(/ -->$/, "", group)
          body[group] = ""
          continue
        }
        if (line == "<!-- flags:end -->") { group = ""; continue }
        if (group != "") body[group] = body[group] line "\n"
      }
    }
    /^<!-- flags:begin / {
      if (inside) { print doc ": flags:begin inside a block" > "/dev/stderr"; bad = 1 }
      group = $0
      sub(/^<!-- flags:begin /, "", group)
      sub(/ -->$/, "", group)
      if (!(group in body)) { print doc ": unknown flag group \"" group "\"" > "/dev/stderr"; bad = 1 }
      printf "%s\n%s", $0, body[group]
      inside = 1
      next
    }
    /^<!-- flags:end -->$/ {
      if (!inside) { print doc ": flags:end without flags:begin" > "/dev/stderr"; bad = 1 }
      inside = 0
      print
      next
    }
    !inside { print }
    END {
      if (inside) { print doc ": flags:begin without flags:end" > "/dev/stderr"; bad = 1 }
      exit bad
    }' "$doc" >"$work/new"; then
    status=1
    continue
  fi
  if cmp -s "$doc" "$work/new"; then continue; fi
  if ((check)); then
    echo "$name: its flag tables differ from qs_server --print_flag_tables:"
    diff -u "$doc" "$work/new" --label "$name" --label "$name (from qs_server)" || true
    status=1
  else
    cp "$work/new" "$doc"
    echo "updated $name"
  fi
done

for group in $groups; do
  if [[ " $seen " != *" $group "* ]]; then
    echo "flag group \"$group\" has no <!-- flags:begin $group --> block in README.md or docs/*.md" \
      "(docs/operations.md, \"Server flags\", holds every group)" >&2
    status=1
  fi
done
if ((status != 0 && check)); then
  echo "The docs' flag tables are generated from the ABSL_FLAG help strings; to regenerate them run" \
    "$regenerate." >&2
fi
exit "$status"
