import math
print(math.factorial(int(input())))
