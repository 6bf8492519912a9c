n = int(input())
v = sorted(set(map(int, input().split())), reverse=True)
print(v[1] if len(v) > 1 else -1)
