# One GPU-machine session: tests, default bench, profile capture, memcheck, suite + peers; one tarball back.
set -uo pipefail
export XPOSE_CLI=$PWD/build-gpu/apps/xpose/xpose PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; B=build-gpu/tests; X=build-gpu/apps/xpose/xpose
S=$SECONDS
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt
timeout 150 $B/xpose_gpu_tests --gtest_output=json:$R/gtest_gpu.json > $R/gtest_gpu.log 2>&1; echo "gpu tests rc=$? t=$((SECONDS-S))"
for t in core plan cpu cli profile profile_cli; do timeout 60 $B/xpose_${t}_tests --gtest_brief=1 > $R/gtest_$t.log 2>&1; echo "$t rc=$?"; done
timeout 90 $X bench --json $R/bench_default.json > $R/bench_default.txt 2>&1; echo "bench rc=$? t=$((SECONDS-S))"
OUT=$R/prof timeout 150 bash scripts/capture_ncu_fixture.sh > /dev/null 2>&1; echo "capture rc=$? t=$((SECONDS-S))"
timeout 60 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='*Skinny*:*Misaligned*:*PrintsTheLaunch*:*Refused*' > $R/memcheck.log 2>&1; echo "memcheck rc=$? t=$((SECONDS-S))"; tail -3 $R/memcheck.log
timeout 280 python3 bench/peers.py --xpose $X --out-dir $R/peers --budget-s 240 > $R/peers.log 2>&1; echo "peers rc=$? t=$((SECONDS-S))"
tar czf $OUT/results.tgz -C $OUT r && rm -rf $R
grep -E "PASSED|FAILED" -h /dev/null
