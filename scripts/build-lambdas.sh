#!/usr/bin/env bash
# Builds every Lambda function under functions/<name> into
# build/lambda/<name>/bootstrap for the provided.al2023 runtime on arm64
# (static, stripped, reproducible paths). The CDK stacks package these
# directories; `make synth` and `make deploy` need them.
#
#   scripts/build-lambdas.sh            # all functions
#   scripts/build-lambdas.sh profile ws # some
set -euo pipefail
cd "$(dirname "$0")/.."
out=${LAMBDA_OUT:-build/lambda}
if [ "$#" -gt 0 ]; then
  names=("$@")
else
  names=()
  for d in functions/*/; do
    n=$(basename "$d")
    [ "$n" = internal ] && continue
    [ -f "$d/main.go" ] && names+=("$n")
  done
fi
for n in "${names[@]}"; do
  mkdir -p "$out/$n"
  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -tags lambda.norpc \
    -o "$out/$n/bootstrap" "./functions/$n"
  echo "built $out/$n/bootstrap ($(du -h "$out/$n/bootstrap" | cut -f1))"
done
