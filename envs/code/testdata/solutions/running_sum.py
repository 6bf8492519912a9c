n = int(input())
total, out = 0, []
for x in map(int, input().split()):
    total += x
    out.append(total)
print(*out)
