#!/usr/bin/env bash
# The Prometheus configuration and alert rules of deploy/prometheus: promtool accepts them and the rule
# unit tests (rules_test.yml: each alert fires on its series and not on a nearby one) pass.
set -euo pipefail
cd "$(dirname "$0")/../../deploy/prometheus"
promtool check rules rules.yml
promtool test rules rules_test.yml
# The compose file's config names the service "qs-server", which does not resolve here: syntax only.
promtool check config --syntax-only prometheus.yml
