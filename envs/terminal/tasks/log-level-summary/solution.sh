{
  echo level,count
  for l in ERROR WARNING INFO; do
    echo "$l,$(cat logs/*.log | awk -v l="$l" '$3 == l' | wc -l)"
  done
} > summary.csv
