set -e
python3 - <<'PY'
import random
r = random.Random(20240607)
ips = ["10.0.0.%d" % i for i in range(1, 9)] + ["192.168.4.20"] * 6
paths = ["/", "/index.html", "/api/items", "/missing", "/img/logo.png"]
with open("access.log", "w") as f:
    for i in range(300):
        ip = r.choice(ips)
        path = r.choice(paths)
        status = 404 if path == "/missing" else r.choice([200, 200, 200, 304, 500])
        f.write('%s - - [07/Jun/2024:10:%02d:%02d +0000] "GET %s HTTP/1.1" %d %d\n' % (ip, i // 60, i % 60, path, status, r.randint(100, 5000)))
PY
