{
  echo region,total
  tail -n +2 sales.csv | awk -F, '{t[$2] += $4} END {for (r in t) printf "%s,%.2f\n", r, t[r]}' | sort
} > totals.csv
