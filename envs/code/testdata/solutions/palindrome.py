s = [c.lower() for c in input() if c.isalnum()]
print("YES" if s == s[::-1] else "NO")
