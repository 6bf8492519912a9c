awk '/^\[/ { ts = substr($0, 2, 19); keep = (ts >= "2024-04-09 10:00:00" && ts <= "2024-04-09 10:59:59") } keep' app.log > window.log
