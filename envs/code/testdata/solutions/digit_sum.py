print(sum(int(c) for c in input().strip()))
