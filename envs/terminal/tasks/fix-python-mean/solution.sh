python3 - <<'PY'
s = open("stats.py").read()
s = s.replace("nums.append(int(line))", "nums.append(float(line))")
s = s.replace("for i in range(1, len(nums)):", "for i in range(len(nums)):")
s = s.replace("round(total / len(nums) - 1, 2)", "round(total / len(nums), 2)")
open("stats.py", "w").write(s)
PY
