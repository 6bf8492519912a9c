r, c = map(int, input().split())
m = [input().split() for _ in range(r)]
for j in range(c):
    print(" ".join(m[i][j] for i in range(r)))
