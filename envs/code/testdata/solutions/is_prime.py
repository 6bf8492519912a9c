import sys

def prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True

data = sys.stdin.read().split()
for x in data[1:1 + int(data[0])]:
    print("YES" if prime(int(x)) else "NO")
