set -e
mkdir -p data/a/deep data/b
head -c 500 /dev/zero > data/small.bin
head -c 1001 /dev/zero > data/a/just-over.bin
head -c 1000 /dev/zero > data/a/exactly.bin
head -c 4096 /dev/zero > data/a/deep/big.dat
head -c 2000 /dev/zero > "data/b/with space.log"
head -c 10 /dev/zero > data/b/tiny
