#!/bin/bash
# The finish step of scripts/slurm/gpusonar.sbatch, also usable alone: checks that every node
# wrote a result document into DIR, then runs `gpusonar fleet` over DIR. The fleet report goes to
# stdout and, as the fleet page and a table, to DIR/fleet.md and DIR/fleet.csv.
#
#   gpusonar-finish.sh DIR [NODE...]
#
# Exit status: fleet's (0 no outlier, 1 an outlier, 2 trouble: also a GPU model with fewer than 3
# GPUs, which cannot be judged, unless GPUSONAR_FLEET_ARGS holds --allow-few), and 2 when a NODE
# named wrote no document. GPUSONAR (default gpusonar) is the binary; GPUSONAR_FLEET_ARGS more
# fleet options.
set -uo pipefail
dir=${1:?usage: gpusonar-finish.sh DIR [NODE...]}
shift
GPUSONAR=${GPUSONAR:-gpusonar}
read -r -a fleet_args <<< "${GPUSONAR_FLEET_ARGS:-}"

missing=()
for node in "$@"; do
  compgen -G "$dir/$node-*.json" > /dev/null || missing+=("$node")
done

"$GPUSONAR" fleet "${fleet_args[@]}" --format markdown "$dir" > "$dir/fleet.md"
"$GPUSONAR" fleet "${fleet_args[@]}" --format csv "$dir" > "$dir/fleet.csv"
"$GPUSONAR" fleet "${fleet_args[@]}" "$dir"
status=$?

if [ ${#missing[@]} -gt 0 ]; then
  echo
  echo "Nodes without a result document (see $dir/<node>.log): ${missing[*]}"
  status=2
fi
echo
echo "fleet page: $dir/fleet.md; table: $dir/fleet.csv; exit status $status"
exit $status
