python3 - <<'PY'
import csv
with open("staff.csv", newline="") as f, open("ops.csv", "w", newline="") as out:
    r = csv.reader(f)
    w = csv.writer(out, lineterminator="\n")
    w.writerow(next(r))
    for row in r:
        if row[2] == "ops" and int(row[3]) > 50000:
            w.writerow(row)
PY
