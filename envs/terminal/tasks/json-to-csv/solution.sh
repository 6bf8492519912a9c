python3 - <<'PY'
import csv, json
users = sorted(json.load(open("users.json")), key=lambda u: u["id"])
with open("users.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["id", "name", "age"])
    for u in users:
        w.writerow([u["id"], u["name"], u["age"]])
PY
