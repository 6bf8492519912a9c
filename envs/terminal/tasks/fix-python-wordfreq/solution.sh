python3 - <<'PY'
s = open("wordfreq.py").read()
s = s.replace('re.findall(r"[a-z]+", text)', 're.findall(r"[a-z]+", text.lower())')
s = s.replace("path, n = sys.argv[1], sys.argv[2]", "path, n = sys.argv[1], int(sys.argv[2])")
s = s.replace("key=lambda kv: (kv[1], kv[0]), reverse=True", "key=lambda kv: (-kv[1], kv[0])")
s = s.replace("print(word, count)", "print(count, word)")
open("wordfreq.py", "w").write(s)
PY
