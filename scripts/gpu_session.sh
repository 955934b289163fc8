# One GPU-machine session in two calls (each under the device's 10-minute limit), results under $OUT:
#   bash scripts/gpu_session.sh tests   GPU tests, default bench, memcheck, ncu tables of the
#                                       suite cases that miss their target -> $OUT/results.tgz
#   bash scripts/gpu_session.sh peers   the suite through xpose (auto, geam, tuned; and in-process through
#                                       build-gpu/src/libxpose_c.so) and its peers -> $OUT/peers/
#   bash scripts/gpu_session.sh scan    bench/shape_scan.py: 336 shapes beyond the suite, auto
#                                       plan, worst first -> $OUT/scan.json, scan.txt
#   bash scripts/gpu_session.sh pack    on the development machine, after building build-gpu/: the
#                                       binaries the modes above run, into .carry/build-gpu.txz (the
#                                       tree with build-gpu/ itself is past the device's 64 MiB);
#                                       carry ".carry" and the modes unpack it first. The tests that
#                                       need no GPU are not packed (the tracked tree, bench/results
#                                       above all, leaves about 20 MB of the 64 MiB): run them here
set -uo pipefail
BINS="tests/xpose_gpu_tests tests/xpose_profile_tests tests/xpose_profile_cli_tests apps/xpose/xpose src/libxpose_c.so"
if [ "${1:-tests}" = pack ]; then
  # Packed to a temporary file and moved into place only whole, so that a pack run where build-gpu/
  # is missing (such as on the GPU machine) cannot clobber the pack it was carried with.
  # One stream with a dictionary wider than a binary: each binary links the whole kernel set, so the
  # later ones compress to little against the first (about 8.4 MB in all, against 40 MB packed apart).
  mkdir -p .carry && (cd build-gpu && tar cf - $BINS) | xz -T1 --lzma2=preset=6,dict=192MiB > .carry/build-gpu.txz.tmp &&
    mv .carry/build-gpu.txz.tmp .carry/build-gpu.txz && ls -l .carry/build-gpu.txz
  rc=$?; rm -f .carry/build-gpu.txz.tmp; exit $rc
fi
# Unpacked only where the pack is newer than the binaries there (a bare or warm GPU machine), so that a
# fresher build-gpu/ is never overwritten; -m stamps the unpacked files now, so later calls skip it.
if [ .carry/build-gpu.txz -nt build-gpu/tests/xpose_gpu_tests ]; then
  mkdir -p build-gpu && tar xmJf .carry/build-gpu.txz -C build-gpu
fi
export XPOSE_CLI=$PWD/build-gpu/apps/xpose/xpose PYTHONUNBUFFERED=1
B=build-gpu/tests; X=build-gpu/apps/xpose/xpose
S=$SECONDS
case "${1:-tests}" in
tests)
  R=$OUT/r; mkdir -p $R
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/gpu.txt
  timeout 280 $B/xpose_gpu_tests --gtest_output=json:$R/gtest_gpu.json > $R/gtest_gpu.log 2>&1; echo "gpu tests rc=$? t=$((SECONDS-S))"
  # The packed test binaries only: a warm machine may still hold others from an older pack.
  for t in profile profile_cli; do
    timeout 60 $B/xpose_${t}_tests --gtest_brief=1 > $R/gtest_$t.log 2>&1; echo "$t rc=$?"
  done
  timeout 90 $X bench --json $R/bench_default.json > $R/bench_default.txt 2>&1; echo "bench rc=$? t=$((SECONDS-S))"
  timeout 200 compute-sanitizer --tool memcheck $B/xpose_gpu_tests \
    --gtest_filter='*Skinny*:*FewColumns*:*SmallBatch*:*Misaligned*:*NarrowVectors*:*Gather*:*TiledSectors*:*TiledUnaligned*/u8:*TiledUnaligned*/f32:*TiledUnaligned*/bf16:*TiledUnaligned*/f64:*TiledUnaligned*/c128:*EveryBuiltTile*/bf16:*EveryBandedTile*/bf16:*EveryBandedTile*/c128:*LedTiles*:*BandedTileLed*:*PrintsTheLaunch*:*Refused*' \
    > $R/memcheck.log 2>&1; echo "memcheck rc=$? t=$((SECONDS-S))"; tail -2 $R/memcheck.log
  for c in "8192x8192 f32" "16384x16384 u8" "8191x8193 u8" "8191x8193 bf16" "3x1048576 bf16" "1048576x3 u8"; do
    set -- $c
    timeout 60 $X profile --shape $1 --dtype $2 --kernels auto --json $R/profile_${1}_$2.json >> $R/profile_misses.txt 2>&1
  done; echo "profiles t=$((SECONDS-S))"
  tar czf $OUT/results.tgz -C $OUT r && rm -rf $R ;;
peers)
  timeout 570 python3 bench/peers.py --xpose $X --xpose-args "--kernels auto,geam,tuned" --out-dir $OUT/peers --budget-s 520 > $OUT/peers.log 2>&1
  echo "peers rc=$? t=$((SECONDS-S))"; tail -3 $OUT/peers.log ;;
scan)
  timeout 570 python3 bench/shape_scan.py --xpose $X --out $OUT/scan.json > $OUT/scan.txt 2>&1
  echo "scan rc=$? t=$((SECONDS-S))"; head -20 $OUT/scan.txt; tail -1 $OUT/scan.txt ;;
*) echo "usage: gpu_session.sh tests|peers|scan|pack" >&2; exit 2 ;;
esac
