set -e
mkdir parts
for i in $(seq 1 12); do
  printf 'line %02d of the story\n' "$i" | gzip -n > parts/part-$i.gz
done
