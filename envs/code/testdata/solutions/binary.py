print(bin(int(input()))[2:])
